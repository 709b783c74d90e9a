# Sourced by scripts/with-postgres.sh and scripts/with-pgbouncer.sh.
#
# free_port: prints a TCP port on 127.0.0.1 that nothing listens on (the kernel's choice through
# python3 when there is one, else a random port that refuses a connection). A port chosen this way
# can still be taken before the caller binds it, so callers retry their start a few times.
free_port() {
  if command -v python3 >/dev/null 2>&1 && python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()' 2>/dev/null; then
    return 0
  fi
  local p i
  for i in $(seq 1 100); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}
