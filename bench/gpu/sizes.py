"""--set arguments for a variant: the benchmark size (8192 x 8192, 2^26 to sum)
or, with `small`, a size that is not a multiple of any tile (for the sanitizers)."""
import sys

kernel = sys.argv[1]
small = len(sys.argv) > 2 and sys.argv[2] == "small"
family = kernel.split(".")[0]
if family in ("transpose", "matadd"):
    edge = ("100", "77") if small else ("8192", "8192")
    print(f"--set width={edge[0]} --set height={edge[1]}")
elif family == "reduce":
    print("--set n=" + ("100003" if small else str(1 << 26)))
else:
    print("--set blocks=" + ("5" if small else "65536"))
