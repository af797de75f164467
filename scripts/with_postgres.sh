#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server on 127.0.0.1 (port $PGPORT, default 54329) and
# TEST_DATABASE_URL pointing at it; the server and its files are removed afterwards.
#   scripts/with_postgres.sh python -m pytest        # the whole suite on PostgreSQL
# Needs Debian's postgresql package (apt-get install postgresql) and root or the postgres user.
set -euo pipefail
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
PGPORT=${PGPORT:-54329}
dir=$(mktemp -d)
run_as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
stop() { run_as_postgres "$PGBIN/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
run_as_postgres "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
run_as_postgres "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $PGPORT -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
export TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
"$@"
