#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (Playwright's own browser download cannot work
# here). Prints the browser's path.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
fi
command -v chromium
