#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL cluster.
#
#   scripts/with-postgres.sh <command> [args...]
#   e.g. scripts/with-postgres.sh npm test
#        scripts/with-postgres.sh npm run bench
#
# Creates a temporary cluster listening on 127.0.0.1:<free port>, creates the
# non-superuser, non-BYPASSRLS application role `vpp_app` and database `vpp`,
# exports DATABASE_URL=postgres://vpp_app:vpp_app@127.0.0.1:<port>/vpp (and,
# unless already set, a throwaway SECRETS_KEY, which the service requires with
# PostgreSQL), runs
# the command and exits with its exit status. The cluster is stopped and its
# directory removed on every exit path (success, failure, INT/TERM/HUP).
#
# Environment:
#   PG_BINDIR              directory containing initdb/pg_ctl/psql (skips auto-detection)
#   WITH_POSTGRES_REPLICA  1: also start a streaming hot standby of the cluster (pg_basebackup -R
#                          from the primary, on another free port) and export its URL, with the
#                          same credentials, as WITH_POSTGRES_REPLICA_URL. DATABASE_READ_URL is
#                          NOT set: only tests that ask for the replica use it (a lagging replica
#                          behind every list would make create-then-list tests flaky). vpp_app may
#                          pause and resume WAL replay on it (pg_wal_replay_pause/resume), so a
#                          test can hold the replica behind the primary on purpose.
#
# Also exported to the command, for fault tests that stop, restart or kill the
# server (scripts/fault-tests.ts):
#   WITH_POSTGRES_CTL     pg_ctl for this cluster, run as the user that owns it,
#                         with -D and -l already given (`"$WITH_POSTGRES_CTL" restart -m fast`)
#   WITH_POSTGRES_PGDATA  the cluster's data directory (postmaster.pid names the server)
#   WITH_POSTGRES_LOG     the server's log
# The cleanup below stops whatever server runs in that directory at exit, one
# the command restarted included.
#
# If PostgreSQL is not installed it is installed with apt-get (needs root or
# sudo). When run as root, PostgreSQL runs as the `postgres` system user.
set -euo pipefail

log() { printf '[with-postgres] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# free_port, run_as_postgres_in
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

[[ $# -gt 0 ]] || { echo "usage: $0 <command> [args...]" >&2; exit 2; }

APP_ROLE=vpp_app
APP_PASSWORD=vpp_app
APP_DB=vpp

# --------------------------------------------------------------------------
# Locate (or install) the PostgreSQL server binaries.
# --------------------------------------------------------------------------
find_bindir_in_lib() {
  local dir best="" best_ver=-1 ver
  for dir in /usr/lib/postgresql/*/bin; do
    [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] || continue
    ver=$(basename "$(dirname "$dir")")
    ver=${ver%%.*}
    [[ $ver =~ ^[0-9]+$ ]] || continue
    if (( ver > best_ver )); then best_ver=$ver; best=$dir; fi
  done
  [[ -n $best ]] && printf '%s\n' "$best"
}

find_bindir() {
  local initdb pg_ctl
  if initdb=$(command -v initdb) && pg_ctl=$(command -v pg_ctl); then
    # Resolve symlinks (e.g. /usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb)
    # so that psql/postgres from the same installation are used.
    dirname "$(readlink -f "$initdb")"
    return 0
  fi
  find_bindir_in_lib
}

install_postgres() {
  local sudo=()
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 \
      || die "PostgreSQL is not installed and not running as root (no sudo); install the 'postgresql' package"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null 2>&1 \
    || die "PostgreSQL is not installed and apt-get is unavailable; install PostgreSQL or set PG_BINDIR"
  log "PostgreSQL not found; installing it with apt-get"
  # Don't let the Debian package create and start its default 'main' cluster;
  # we only need the binaries.
  if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
    "${sudo[@]}" mkdir -p /etc/postgresql-common
    echo 'create_main_cluster = false' | "${sudo[@]}" tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    postgresql </dev/null >&2
}

if [[ -n ${PG_BINDIR:-} ]]; then
  [[ -x "$PG_BINDIR/initdb" && -x "$PG_BINDIR/pg_ctl" ]] \
    || die "PG_BINDIR=$PG_BINDIR does not contain initdb and pg_ctl"
  BINDIR=$PG_BINDIR
else
  BINDIR=$(find_bindir || true)
fi
if [[ -z $BINDIR ]]; then
  install_postgres
  BINDIR=$(find_bindir_in_lib || true)
  [[ -n $BINDIR ]] || die "PostgreSQL still not found under /usr/lib/postgresql/*/bin after installation"
fi
INITDB=$BINDIR/initdb
PG_CTL=$BINDIR/pg_ctl
if [[ -x $BINDIR/psql ]]; then
  PSQL=$BINDIR/psql
else
  PSQL=$(command -v psql) || die "psql not found"
fi
log "using PostgreSQL binaries in $BINDIR ($("$PG_CTL" --version))"

# --------------------------------------------------------------------------
# Which OS user runs the server. PostgreSQL refuses to run as root.
# --------------------------------------------------------------------------
PGTMP=""
ensure_postgres_user
as_pg() { run_as_postgres_in "$PGTMP" "$@"; }

# --------------------------------------------------------------------------
# Cleanup on every exit path.
# --------------------------------------------------------------------------
PGDATA_DIR=""
REPLICA_DIR=""
CHILD_PID=""
CLEANED=0

# Stops whatever server runs in data directory $1 ($2 names it in the log).
stop_server() {
  local dir=$1 what=$2
  [[ -n $dir && -f $dir/postmaster.pid ]] || return 0
  log "stopping $what"
  if ! as_pg "$PG_CTL" stop -D "$dir" -m fast -w -t 30 >/dev/null 2>&1; then
    as_pg "$PG_CTL" stop -D "$dir" -m immediate -w -t 10 >/dev/null 2>&1 || true
  fi
  # Last resort: the postmaster is still there.
  if [[ -f $dir/postmaster.pid ]]; then
    local pid
    pid=$(head -n1 "$dir/postmaster.pid" 2>/dev/null || true)
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      log "killing postmaster $pid"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
    fi
  fi
}

cleanup() {
  [[ $CLEANED -eq 0 ]] || return 0
  CLEANED=1
  # The standby first: with the primary gone first it would only retry its connection until stopped.
  stop_server "$REPLICA_DIR" "the PostgreSQL replica"
  stop_server "$PGDATA_DIR" "PostgreSQL"
  if [[ -n $PGTMP && -d $PGTMP ]]; then
    rm -rf -- "$PGTMP"
    log "removed $PGTMP"
  fi
}

on_exit() {
  local rc=$?
  trap - EXIT INT TERM HUP
  cleanup
  exit "$rc"
}

on_signal() {
  local sig=$1 num=$2
  trap - INT TERM HUP
  log "received SIG$sig"
  if [[ -n $CHILD_PID ]] && kill -0 "$CHILD_PID" 2>/dev/null; then
    kill -TERM "$CHILD_PID" 2>/dev/null || true
    wait "$CHILD_PID" 2>/dev/null || true
  fi
  exit $((128 + num))   # runs on_exit -> cleanup
}

trap on_exit EXIT
trap 'on_signal INT 2' INT
trap 'on_signal TERM 15' TERM
trap 'on_signal HUP 1' HUP

# --------------------------------------------------------------------------
# Create and start the cluster.
# --------------------------------------------------------------------------
PGTMP=$(mktemp -d /tmp/with-postgres.XXXXXX)
PGDATA_DIR=$PGTMP/data
SOCKDIR=$PGTMP
if [[ $EUID -eq 0 ]]; then
  chown postgres: "$PGTMP"
fi
chmod 700 "$PGTMP"

log "initdb in $PGDATA_DIR"
# Local (unix socket) connections: trust. TCP: password (scram-sha-256), so the
# app really authenticates with the credentials in DATABASE_URL.
if ! as_pg "$INITDB" -D "$PGDATA_DIR" -U postgres \
    --auth-local=trust --auth-host=scram-sha-256 \
    --no-sync -E UTF8 --locale=C >"$PGTMP/initdb.log" 2>&1; then
  cat "$PGTMP/initdb.log" >&2
  die "initdb failed"
fi


PORT=""
for attempt in 1 2 3; do
  PORT=$(free_port) || die "could not find a free TCP port"
  log "starting PostgreSQL on 127.0.0.1:$PORT (attempt $attempt)"
  PG_OPTS="-F -h 127.0.0.1 -p $PORT -k $SOCKDIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
  if as_pg "$PG_CTL" start -D "$PGDATA_DIR" -w -t 60 -l "$PGTMP/postgres.log" -o "$PG_OPTS" \
      >/dev/null 2>&1; then
    break
  fi
  log "pg_ctl start failed; server log:"
  tail -n 20 "$PGTMP/postgres.log" >&2 || true
  PORT=""
  # Make sure nothing half-started is left before retrying.
  as_pg "$PG_CTL" stop -D "$PGDATA_DIR" -m immediate -w >/dev/null 2>&1 || true
done
[[ -n $PORT ]] || die "could not start PostgreSQL"

# --------------------------------------------------------------------------
# Application role and database (as superuser through the unix socket).
# --------------------------------------------------------------------------
psql_super() {
  as_pg "$PSQL" -X -q -v ON_ERROR_STOP=1 -h "$SOCKDIR" -p "$PORT" -U postgres "$@"
}

log "creating role $APP_ROLE (NOSUPERUSER NOBYPASSRLS) and database $APP_DB"
psql_super -d postgres >/dev/null <<SQL
CREATE ROLE $APP_ROLE LOGIN PASSWORD '$APP_PASSWORD' NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB;
CREATE DATABASE $APP_DB OWNER $APP_ROLE;
SQL
psql_super -d "$APP_DB" -c "ALTER SCHEMA public OWNER TO $APP_ROLE;" >/dev/null

export DATABASE_URL="postgres://$APP_ROLE:$APP_PASSWORD@127.0.0.1:$PORT/$APP_DB"
# The service refuses PostgreSQL without SECRETS_KEY; a throwaway database gets a throwaway key,
# shared by every process of the command (servers, CLI runs, test files).
export SECRETS_KEY="${SECRETS_KEY:-$(head -c 32 /dev/urandom | base64 | tr -d '\n')}"
log "DATABASE_URL=$DATABASE_URL"

# pg_ctl for the command: as the cluster's owner, from a directory it can enter,
# output to the server log (a server started by it must not hold the caller's
# stdout open); `start` with the options the cluster was started with (same port),
# which `restart` reuses by itself.
if [[ $EUID -eq 0 ]]; then RUN_AS="runuser -u postgres --"; else RUN_AS=""; fi
cat >"$PGTMP/pg_ctl" <<CTL
#!/usr/bin/env bash
if [[ \${1:-} == start ]]; then set -- "\$@" -o $(printf '%q' "$PG_OPTS"); fi
cd "$PGTMP" && exec $RUN_AS "$PG_CTL" -D "$PGDATA_DIR" -l "$PGTMP/postgres.log" "\$@"
CTL
chmod 755 "$PGTMP/pg_ctl"
export WITH_POSTGRES_CTL="$PGTMP/pg_ctl"
export WITH_POSTGRES_PGDATA="$PGDATA_DIR"
export WITH_POSTGRES_LOG="$PGTMP/postgres.log"

# --------------------------------------------------------------------------
# Optional streaming replica (WITH_POSTGRES_REPLICA=1): a hot standby of this
# cluster, for tests of the reads that go to DATABASE_READ_URL.
# --------------------------------------------------------------------------
if [[ ${WITH_POSTGRES_REPLICA:-} == 1 ]]; then
  replica_t0=$(date +%s%N)
  if [[ -x $BINDIR/pg_basebackup ]]; then
    PG_BASEBACKUP=$BINDIR/pg_basebackup
  else
    PG_BASEBACKUP=$(command -v pg_basebackup) || die "pg_basebackup not found"
  fi

  # Granted on the primary before the base backup, so the standby has the grants from its first
  # start: the app role may hold replay (to keep the standby behind on purpose) and release it.
  # Whichever of these functions this server version has (pg_get_wal_replay_pause_state: 14+).
  psql_super -d "$APP_DB" >/dev/null <<SQL
DO \$\$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT oid::regprocedure FROM pg_proc
    WHERE pronamespace = 'pg_catalog'::regnamespace AND pronargs = 0
      AND proname IN ('pg_wal_replay_pause', 'pg_wal_replay_resume',
                      'pg_is_wal_replay_paused', 'pg_get_wal_replay_pause_state')
  LOOP
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO $APP_ROLE', f);
  END LOOP;
END \$\$;
SQL

  REPLICA_DIR=$PGTMP/replica
  log "pg_basebackup into $REPLICA_DIR"
  # As the superuser over the unix socket (initdb's pg_hba: local replication trust). -R writes
  # standby.signal and a primary_conninfo naming that same socket; -X stream brings the WAL the
  # backup needs; a fast checkpoint instead of waiting for a spread one.
  if ! as_pg "$PG_BASEBACKUP" -h "$SOCKDIR" -p "$PORT" -U postgres -D "$REPLICA_DIR" \
      -R -X stream -c fast --no-sync >"$PGTMP/basebackup.log" 2>&1; then
    cat "$PGTMP/basebackup.log" >&2
    die "pg_basebackup failed"
  fi

  REPLICA_PORT=""
  for attempt in 1 2 3; do
    REPLICA_PORT=$(free_port) || die "could not find a free TCP port"
    log "starting the PostgreSQL replica on 127.0.0.1:$REPLICA_PORT (attempt $attempt)"
    # The primary's options on another port; max_connections must not be below the primary's.
    REPLICA_OPTS="-F -h 127.0.0.1 -p $REPLICA_PORT -k $SOCKDIR -c fsync=off -c full_page_writes=off -c max_connections=200 -c hot_standby=on"
    if as_pg "$PG_CTL" start -D "$REPLICA_DIR" -w -t 60 -l "$PGTMP/replica.log" -o "$REPLICA_OPTS" \
        >/dev/null 2>&1; then
      break
    fi
    log "pg_ctl start of the replica failed; server log:"
    tail -n 20 "$PGTMP/replica.log" >&2 || true
    REPLICA_PORT=""
    as_pg "$PG_CTL" stop -D "$REPLICA_DIR" -m immediate -w >/dev/null 2>&1 || true
  done
  [[ -n $REPLICA_PORT ]] || die "could not start the PostgreSQL replica"

  # Ready means: it answers, it is a standby, and its WAL receiver streams from the primary.
  replica_state=""
  for _ in $(seq 1 300); do
    replica_state=$(as_pg "$PSQL" -X -q -At -h "$SOCKDIR" -p "$REPLICA_PORT" -U postgres -d "$APP_DB" \
      -c "select pg_is_in_recovery() and exists (select from pg_stat_wal_receiver where status = 'streaming')" \
      2>/dev/null || true)
    [[ $replica_state == t ]] && break
    sleep 0.1
  done
  if [[ $replica_state != t ]]; then
    tail -n 20 "$PGTMP/replica.log" >&2 || true
    die "the replica did not start streaming from the primary"
  fi

  export WITH_POSTGRES_REPLICA_URL="postgres://$APP_ROLE:$APP_PASSWORD@127.0.0.1:$REPLICA_PORT/$APP_DB"
  log "WITH_POSTGRES_REPLICA_URL=$WITH_POSTGRES_REPLICA_URL (ready in $(( ($(date +%s%N) - replica_t0) / 1000000 )) ms)"
fi

# --------------------------------------------------------------------------
# Run the command. It runs in the background (stdin passed through) so that
# INT/TERM/HUP sent to this script are handled immediately: they are
# forwarded to the command as SIGTERM and the cluster is then torn down.
# --------------------------------------------------------------------------
log "running: $*"
"$@" <&0 &
CHILD_PID=$!
rc=0
wait "$CHILD_PID" || rc=$?
CHILD_PID=""
log "command exited with status $rc"
exit "$rc"
