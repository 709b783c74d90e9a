#!/usr/bin/env bash
# Run a command with PgBouncer (transaction pooling) between it and the PostgreSQL of DATABASE_URL.
#
#   scripts/with-pgbouncer.sh <command> [args...]
#   e.g. scripts/with-postgres.sh scripts/with-pgbouncer.sh npm test
#        scripts/with-postgres.sh scripts/with-pgbouncer.sh npm run bench
#
# Meant to run inside scripts/with-postgres.sh: it reads DATABASE_URL
# (postgres://user:password@host:port/db), starts a throwaway PgBouncer on
# 127.0.0.1:<free port> in front of it and runs the command with
#   DATABASE_URL                   the pooler (same user, password and database)
#   DATABASE_LISTEN_URL            the direct URL it was given: the cache-invalidation
#                                  bus LISTENs, which needs a session of its own
#   DATABASE_PREPARED_STATEMENTS   false: PgBouncer before 1.21 does not carry
#                                  protocol-level prepared statements between server
#                                  connections (docs/deployment.md)
#   WITH_PGBOUNCER_ADMIN_URL       PgBouncer's console (SHOW POOLS, SHOW SERVERS, ...)
#   WITH_PGBOUNCER_LOG             PgBouncer's log
# and exits with the command's exit status. PgBouncer is stopped and its
# directory removed on every exit path (success, failure, INT/TERM/HUP).
#
# The pool is made to expose session-state bugs rather than hide them: pool_mode
# = transaction, server_reset_query empty (as PgBouncer runs transaction pools
# anyway), and server_round_robin = 1, so consecutive transactions of one client
# land on different server connections whenever the pool has more than one.
#
# Environment:
#   PGBOUNCER_POOL_SIZE   server connections per (database, user) pair (default 20)
#
# If PgBouncer is not installed, the Debian package `pgbouncer` is installed with
# apt-get (needs root or sudo) without letting the package start its own
# service. When run as root, PgBouncer runs as the `postgres` system user.
set -euo pipefail

log() { printf '[with-pgbouncer] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# free_port, run_as_postgres_in
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

[[ $# -gt 0 ]] || { echo "usage: $0 <command> [args...]" >&2; exit 2; }

POOL_SIZE=${PGBOUNCER_POOL_SIZE:-20}
[[ $POOL_SIZE =~ ^[1-9][0-9]*$ ]] || die "PGBOUNCER_POOL_SIZE must be a positive integer (got \"$POOL_SIZE\")"

# --------------------------------------------------------------------------
# The server to pool: DATABASE_URL as scripts/with-postgres.sh exports it.
# --------------------------------------------------------------------------
DIRECT_URL=${DATABASE_URL:-}
[[ -n $DIRECT_URL ]] || die "DATABASE_URL is not set; run this inside scripts/with-postgres.sh"

url_decode() {
  local s=${1//+/ }
  printf '%b' "${s//%/\\x}"
}

# Query parameters (sslmode, ...) are not carried to the pooler's server connections.
url_re='^postgres(ql)?://([^:@/?]+):([^@/?]*)@([^:/?]+|\[[0-9a-fA-F:]+\]):([0-9]+)/([^?]+)(\?.*)?$'
[[ $DIRECT_URL =~ $url_re ]] \
  || die "DATABASE_URL must look like postgres://user:password@host:port/database (got \"$DIRECT_URL\")"
DB_USER_RAW=${BASH_REMATCH[2]}
DB_PASSWORD_RAW=${BASH_REMATCH[3]}
DB_HOST=${BASH_REMATCH[4]}
DB_PORT=${BASH_REMATCH[5]}
DB_NAME_RAW=${BASH_REMATCH[6]}
DB_HOST=${DB_HOST#[}
DB_HOST=${DB_HOST%]}
DB_USER=$(url_decode "$DB_USER_RAW")
DB_PASSWORD=$(url_decode "$DB_PASSWORD_RAW")
DB_NAME=$(url_decode "$DB_NAME_RAW")
[[ $DB_NAME =~ ^[A-Za-z0-9_]+$ ]] || die "database name \"$DB_NAME\" is not supported by this script"
[[ $DB_USER =~ ^[A-Za-z0-9_]+$ ]] || die "user name \"$DB_USER\" is not supported by this script"
[[ $DB_HOST =~ ^[A-Za-z0-9_.:-]+$ ]] || die "host \"$DB_HOST\" is not supported by this script"

# --------------------------------------------------------------------------
# Locate (or install) PgBouncer.
# --------------------------------------------------------------------------
install_pgbouncer() {
  local sudo=()
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 \
      || die "PgBouncer is not installed and not running as root (no sudo); install the 'pgbouncer' package"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null 2>&1 || die "PgBouncer is not installed and apt-get is unavailable"
  log "PgBouncer not found; installing it with apt-get"
  # The package's postinst starts its own service (invoke-rc.d / deb-systemd-invoke, both of which
  # ask policy-rc.d first): with no init system in a container, that daemon would be left running on
  # port 6432. Exit status 101 of policy-rc.d forbids it; ours is removed again afterwards.
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\n# scripts/with-pgbouncer.sh: no service starts while it installs pgbouncer\nexit 101\n' \
      | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    own_policy=1
  fi
  local rc=0
  {
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
      && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        pgbouncer </dev/null >&2
  } || rc=$?
  if [[ $own_policy -eq 1 ]]; then "${sudo[@]}" rm -f "$policy"; fi
  [[ $rc -eq 0 ]] || die "apt-get install pgbouncer failed (status $rc)"
}

PGBOUNCER=$(command -v pgbouncer || true)
if [[ -z $PGBOUNCER && -x /usr/sbin/pgbouncer ]]; then PGBOUNCER=/usr/sbin/pgbouncer; fi
if [[ -z $PGBOUNCER ]]; then
  install_pgbouncer
  PGBOUNCER=$(command -v pgbouncer || true)
  if [[ -z $PGBOUNCER && -x /usr/sbin/pgbouncer ]]; then PGBOUNCER=/usr/sbin/pgbouncer; fi
  [[ -n $PGBOUNCER ]] || die "pgbouncer still not found after installation"
fi
log "using $PGBOUNCER ($("$PGBOUNCER" --version 2>&1 | head -n1))"
PSQL=$(command -v psql || true)

# --------------------------------------------------------------------------
# Which OS user runs PgBouncer. It refuses to run as root.
# --------------------------------------------------------------------------
BTMP=""
ensure_postgres_user
as_bouncer() { run_as_postgres_in "$BTMP" "$@"; }

# --------------------------------------------------------------------------
# Cleanup on every exit path.
# --------------------------------------------------------------------------
CHILD_PID=""
CLEANED=0

bouncer_pid() {
  local pid
  [[ -n $BTMP && -f $BTMP/pgbouncer.pid ]] || return 1
  pid=$(head -n1 "$BTMP/pgbouncer.pid" 2>/dev/null || true)
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && printf '%s\n' "$pid"
}

stop_bouncer() {
  local pid i
  pid=$(bouncer_pid) || return 0
  log "stopping PgBouncer (pid $pid)"
  # SIGTERM: immediate shutdown (clients are disconnected; the command is over).
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "killing PgBouncer $pid"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.2
}

cleanup() {
  [[ $CLEANED -eq 0 ]] || return 0
  CLEANED=1
  stop_bouncer
  if [[ -n $BTMP && -d $BTMP ]]; then
    rm -rf -- "$BTMP"
    log "removed $BTMP"
  fi
}

# Once cleanup may start, further INT/TERM/HUP are ignored rather than fatal: this script runs
# under scripts/with-postgres.sh, which forwards the TERM its process group already delivered, and
# a second TERM must not end this shell before it stops PgBouncer (a daemon in a session of its
# own, which a signal to the process group does not reach).
on_exit() {
  local rc=$?
  trap - EXIT
  trap '' INT TERM HUP
  cleanup
  exit "$rc"
}

on_signal() {
  local sig=$1 num=$2
  trap '' INT TERM HUP
  log "received SIG$sig"
  if [[ -n $CHILD_PID ]] && kill -0 "$CHILD_PID" 2>/dev/null; then
    kill -TERM "$CHILD_PID" 2>/dev/null || true
    wait "$CHILD_PID" 2>/dev/null || true
  fi
  exit $((128 + num)) # runs on_exit -> cleanup
}

trap on_exit EXIT
trap 'on_signal INT 2' INT
trap 'on_signal TERM 15' TERM
trap 'on_signal HUP 1' HUP

# --------------------------------------------------------------------------
# Configuration.
# --------------------------------------------------------------------------
BTMP=$(mktemp -d /tmp/with-pgbouncer.XXXXXX)
chmod 700 "$BTMP"
if [[ $EUID -eq 0 ]]; then chown postgres: "$BTMP"; fi

ADMIN_USER=pgbouncer_admin
ADMIN_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '\n/+=')

# auth_file: "name" "password", a double quote inside doubled. Plain passwords let PgBouncer both
# check its clients with SCRAM and log in to PostgreSQL as the same user (no user is forced in
# [databases]), whose TCP connections ask for SCRAM.
quote_auth() { printf '"%s"' "${1//\"/\"\"}"; }
{
  printf '%s %s\n' "$(quote_auth "$DB_USER")" "$(quote_auth "$DB_PASSWORD")"
  printf '%s %s\n' "$(quote_auth "$ADMIN_USER")" "$(quote_auth "$ADMIN_PASSWORD")"
} >"$BTMP/userlist.txt"

write_config() {
  local port=$1
  cat >"$BTMP/pgbouncer.ini" <<INI
[databases]
$DB_NAME = host=$DB_HOST port=$DB_PORT dbname=$DB_NAME

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
logfile = $BTMP/pgbouncer.log
pidfile = $BTMP/pgbouncer.pid
auth_type = scram-sha-256
auth_file = $BTMP/userlist.txt
admin_users = $ADMIN_USER
stats_users = $ADMIN_USER
pool_mode = transaction
default_pool_size = $POOL_SIZE
max_client_conn = 1000
server_reset_query =
server_round_robin = 1
ignore_startup_parameters = extra_float_digits,options
log_connections = 0
log_disconnections = 0
INI
  chmod 600 "$BTMP/userlist.txt" "$BTMP/pgbouncer.ini"
  if [[ $EUID -eq 0 ]]; then chown postgres: "$BTMP/userlist.txt" "$BTMP/pgbouncer.ini"; fi
}


# Answers a query through the pooler: PgBouncer listens, authenticates and reaches PostgreSQL.
pooler_answers() {
  local port=$1
  if [[ -n $PSQL ]]; then
    # PgBouncer keeps a client waiting while it cannot reach the server: bounded by `timeout`.
    PGPASSWORD=$DB_PASSWORD PGCONNECT_TIMEOUT=2 timeout 5 "$PSQL" -X -q -At -h 127.0.0.1 -p "$port" \
      -U "$DB_USER" -d "$DB_NAME" -c 'select 1' </dev/null 2>/dev/null | grep -qx 1
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
  fi
}

# --------------------------------------------------------------------------
# Start PgBouncer.
# --------------------------------------------------------------------------
PORT=""
for attempt in 1 2 3; do
  PORT=$(free_port) || die "could not find a free TCP port"
  write_config "$PORT"
  log "starting PgBouncer on 127.0.0.1:$PORT (pool_mode=transaction, pool $POOL_SIZE, attempt $attempt)"
  # max_client_conn = 1000 needs more descriptors than a soft limit of 1024 leaves; the limit is
  # raised by PgBouncer's own shell, as runuser's PAM session sets it again.
  if (
    hard=$(ulimit -H -n)
    if [[ $hard != unlimited ]] && ((hard < 4096)); then ulimit -H -n 4096 2>/dev/null || true; fi
    # shellcheck disable=SC2016 # expanded by the inner shell
    as_bouncer sh -c 'ulimit -S -n "$(ulimit -H -n)" 2>/dev/null; exec "$@"' sh "$PGBOUNCER" -d -q "$BTMP/pgbouncer.ini"
  ) >/dev/null 2>&1; then
    deadline=$((SECONDS + 30))
    while ((SECONDS < deadline)); do
      if pooler_answers "$PORT"; then break 2; fi
      # Gone: most likely another process took the port first; try another one.
      bouncer_pid >/dev/null || break
      sleep 0.1
    done
    if bouncer_pid >/dev/null; then
      log "PgBouncer runs but queries through it do not reach PostgreSQL at $DB_HOST:$DB_PORT; its log:"
      tail -n 20 "$BTMP/pgbouncer.log" >&2 2>/dev/null || true
      die "PgBouncer does not answer"
    fi
  fi
  log "PgBouncer did not come up; its log:"
  tail -n 20 "$BTMP/pgbouncer.log" >&2 2>/dev/null || true
  stop_bouncer
  PORT=""
done
[[ -n $PORT ]] || die "could not start PgBouncer"

export DATABASE_URL="postgres://$DB_USER_RAW:$DB_PASSWORD_RAW@127.0.0.1:$PORT/$DB_NAME_RAW"
export DATABASE_LISTEN_URL=$DIRECT_URL
export DATABASE_PREPARED_STATEMENTS=false
export WITH_PGBOUNCER_ADMIN_URL="postgres://$ADMIN_USER:$ADMIN_PASSWORD@127.0.0.1:$PORT/pgbouncer"
export WITH_PGBOUNCER_LOG="$BTMP/pgbouncer.log"
log "DATABASE_URL=$DATABASE_URL (PgBouncer), DATABASE_LISTEN_URL=$DATABASE_LISTEN_URL"

# --------------------------------------------------------------------------
# Run the command, in the background so that INT/TERM/HUP are handled at once
# (forwarded to it as SIGTERM, then PgBouncer is stopped).
# --------------------------------------------------------------------------
log "running: $*"
"$@" <&0 &
CHILD_PID=$!
rc=0
wait "$CHILD_PID" || rc=$?
CHILD_PID=""
log "command exited with status $rc"
exit "$rc"
