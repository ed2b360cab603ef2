#!/usr/bin/env bash
# `npm run fetch:corpora`: clones the public corpora the quality bench reads but never commits into
# .corpora/ (gitignored), each at the commit the bench was written against. Needs a machine with
# internet access; without it the bench and the leak check skip these corpora and say so.
#
#   .corpora/qmsum     QMSum (Zhong et al., NAACL 2021), MIT license: AMI, ICSI and committee meetings
#   .corpora/treeseg   TinyRec in TreeSeg (Augmend, 2024), Apache-2.0: recorded sessions with human topics
#   .corpora/vt-ssum   VT-SSum (Lv et al., 2021), no license stated: VideoLectures.NET lecture transcripts
#
# Each folder can also be given by an environment variable (QMSUM_DIR, TINYREC_DIR, VTSSUM_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .corpora

fetch() {
	local name=$1 url=$2 commit=$3
	if [ -d ".corpora/$name/.git" ]; then
		echo "$name: already in .corpora/$name"
	else
		echo "$name: cloning $url"
		git clone --quiet --filter=blob:none --no-checkout "$url" ".corpora/$name"
	fi
	git -C ".corpora/$name" fetch --quiet origin "$commit" 2>/dev/null || true
	git -C ".corpora/$name" -c advice.detachedHead=false checkout --quiet "$commit"
	echo "$name: at $(git -C ".corpora/$name" rev-parse --short HEAD)"
}

fetch qmsum https://github.com/Yale-LILY/QMSum.git 83d7768c1f2b4dfeb091385d3dc7e239b8e5bb7e
fetch treeseg https://github.com/AugmendTech/treeseg.git ad54bb7f9dad2921184e68425b5e7b28d915d890
fetch vt-ssum https://github.com/Dod-o/VT-SSum.git b72da9e4009e2bf1a54d858fd0d1dbf434ac1d12
