#!/usr/bin/env bash
# Installs what Platen needs from Debian, idempotently: only missing packages
# are installed, and apt is not touched when nothing is missing.
#   chromium                         the full browser engine (go-rod drives /usr/bin/chromium)
#   poppler-utils                    pdftotext/pdftoppm, used by the tests to read PDFs
#   fonts-liberation, fonts-dejavu-core  metric-compatible fonts for templates, and the
#                                    substitutes a PDF template sets values in (pdfform)
set -euo pipefail

packages=(chromium poppler-utils fonts-liberation fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
