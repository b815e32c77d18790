#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the tests, installing PostgreSQL first if this machine lacks it.
# Usage: scripts/postgres.sh start DIR PORT   -> prints the SQLAlchemy URL
#        scripts/postgres.sh stop DIR
# The tests run it without fsync (their data is thrown away); PG_FSYNC=on keeps it, as benchmarks/load.py does so
# that its figures are those of a durable store.
set -euo pipefail
cmd=${1:?start or stop}; dir=${2:?data folder}
find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin || true)
if [ "$cmd" = stop ]; then
  [ -n "$bin" ] && [ -d "$dir/data" ] && runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  exit 0
fi
port=${3:?port}
if [ -z "$bin" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
  bin=$(find_bin)
fi
mkdir -p "$dir"
chown postgres "$dir"
runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=${PG_FSYNC:-off}" \
  -l "$dir/log" -w start >/dev/null
runuser -u postgres -- "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres splendor_test
echo "postgresql+psycopg://postgres@127.0.0.1:$port/splendor_test"
