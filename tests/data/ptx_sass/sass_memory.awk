/^\.text\./ { fn = substr($1, 7); sub(/:$/, "", fn) }
/\/\/## File/ { match($0, /line [0-9]+/); line = substr($0, RSTART + 5, RLENGTH - 5) }
/^ +\/\*[0-9a-f]+\*\// { for (i = 2; i <= NF; i++) { t = $i; if (t ~ /^@/) continue
 if (t ~ /^(LDS|STS|LDG|STG|LD|ST|LDSM|ATOMS|ATOMG|ATOM|RED|LDGSTS)(\.|$)/) c[fn " " line " " t]++
 break } }
END { for (k in c) print k, c[k] }
