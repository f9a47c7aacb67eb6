#!/usr/bin/env bash
# Installs what Platen needs from Debian, idempotently: only missing packages
# are installed, and apt is not touched when nothing is missing.
#   chromium                         the full browser engine (go-rod drives /usr/bin/chromium)
#   poppler-utils                    pdftotext/pdftoppm/pdffonts, used by the tests to read PDFs
#   fonts-liberation, fonts-dejavu-core  metric-compatible fonts for templates, and the
#                                    substitutes a PDF template sets values in (pdftemplate)
# With --test (make test), also the fonts the tests render with, as an operator
# would add fonts to a node:
#   fonts-urw-base35, fonts-lmodern, fonts-opensymbol
# the e-invoice validator's tools (../shared/einvoice/validate: the CII XSD
# with xmllint, the EN 16931 and Factur-X Schematron with Saxon-HE on Java,
# its report read with python3):
#   libxml2-utils, libsaxonhe-java, default-jre-headless, python3
# and qpdf, whose --json=2 the accessibility tests read the structure tree with.
# Always, when no `node` or `npm` command is found, Debian's nodejs and npm:
# make bundles the console's code editor with esbuild from npm, and the
# browser tests (e2e/) run on node. A node and npm installed another way
# (nodesource, nvm) are kept, so only the commands are looked for, not the
# packages.
# Debian's fontconfig rebuilds the font cache (fc-cache) when a font package
# is installed; a browser started afterwards finds the new fonts.
set -euo pipefail

packages=(chromium poppler-utils fonts-liberation fonts-dejavu-core)
case "${1:-}" in
  "") ;;
  --test) packages+=(fonts-urw-base35 fonts-lmodern fonts-opensymbol libxml2-utils libsaxonhe-java default-jre-headless python3 qpdf) ;;
  *) echo "usage: $0 [--test]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
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
