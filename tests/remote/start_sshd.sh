#!/usr/bin/env bash
# Starts a throwaway OpenSSH server on 127.0.0.1 for the remote tests.
# Usage: start_sshd.sh DIR [FORCE_COMMAND]
# Writes DIR/{host_key,client_key,authorized_keys,sshd_config,sshd.pid,ssh_command,port}.
set -euo pipefail
dir=$1
force=${2:-}
mkdir -p "$dir"
chmod 700 "$dir"
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { echo "no sshd (Debian: openssh-server)" >&2; exit 3; }
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" <<<y >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key" <<<y >/dev/null
cp "$dir/client_key.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{
  echo "Port $port"
  echo "ListenAddress 127.0.0.1"
  echo "HostKey $dir/host_key"
  echo "AuthorizedKeysFile $dir/authorized_keys"
  echo "PidFile $dir/sshd.pid"
  echo "StrictModes no"
  echo "UsePAM no"
  echo "PasswordAuthentication no"
  echo "KbdInteractiveAuthentication no"
  echo "PermitRootLogin prohibit-password"
  echo "PermitUserEnvironment no"
  echo "AcceptEnv THREADMAP_*"
  [ -n "$force" ] && echo "ForceCommand $force"
} >"$dir/sshd_config"
[ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd
"$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log"
for _ in $(seq 50); do [ -s "$dir/sshd.pid" ] && break; sleep 0.1; done
echo "$port" >"$dir/port"
echo "ssh -F /dev/null -i $dir/client_key -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes" >"$dir/ssh_command"
echo "$port"
