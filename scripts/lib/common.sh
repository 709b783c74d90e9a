# Sourced by scripts/with-postgres.sh and scripts/with-pgbouncer.sh, which define log and die.
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

# ensure_postgres_user: as root, makes sure runuser and the `postgres` system user exist (PostgreSQL
# and PgBouncer refuse to run as root). Called after any package installation, which creates the
# user its own way.
ensure_postgres_user() {
  [[ $EUID -eq 0 ]] || return 0
  command -v runuser >/dev/null 2>&1 || die "runuser not found (util-linux)"
  if ! id -u postgres >/dev/null 2>&1; then
    log "creating system user 'postgres'"
    useradd --system --user-group --no-create-home \
      --home-dir /var/lib/postgresql --shell /usr/sbin/nologin postgres
  fi
}

# run_as_postgres_in <dir> <command> [args...]: runs the command from <dir> (the postgres user may
# not be able to enter the caller's directory), as `postgres` when this script runs as root, else as
# the caller.
run_as_postgres_in() {
  local dir=$1
  shift
  if [[ $EUID -eq 0 ]]; then
    (cd "$dir" && runuser -u postgres -- "$@")
  else
    (cd "$dir" && "$@")
  fi
}
