#!/usr/bin/env bash
# The moderation console in a real headless browser (Debian's chromium and chromium-driver, selenium
# from PyPI) against a fresh `huddle` with demo data: see console_test.py.
# Usage: deploy/console/run.sh (after `swift build --product huddle`)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
python3 -m pip install --quiet --disable-pip-version-check selenium >/dev/null
# The driver is Debian's: Selenium is not to look for another, nor send statistics (there is no internet).
export SE_AVOID_STATS=true
. deploy/lib/fresh-huddle.sh
start_fresh_huddle --set auth.staff.second-factor=required
python3 deploy/console/console_test.py http://127.0.0.1:8080
