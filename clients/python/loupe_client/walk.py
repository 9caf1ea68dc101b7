"""A recursive walk that keeps images and videos, told by their leading bytes as the server tells them."""

import os
import struct

SNIFF_BYTES = 4100

HEIF_BRANDS = {"heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"}
MP4_BRANDS = {
    "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1", "avc2",
    "hvc1", "hev1", "av01", "M4V ", "M4VH", "M4VP", "dash", "msdh", "msix", "mmp4", "MSNV", "XAVC", "F4V ", "f4v ",
    "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS", "qt  ",
}
NOT_VIDEO_BRANDS = {"M4A ", "M4B ", "M4P ", "F4A ", "F4B ", "crx "}
QUICKTIME_ATOMS = {b"moov", b"mdat", b"wide", b"pnot"}
BMP_DIB_SIZES = {12, 40, 52, 56, 64, 108, 124}


def media_kind(head):
    """'image', 'video', or None for anything else (archives included): src/adapters/media/sniff.ts in short."""
    if head.startswith(b"\xff\xd8\xff") or head.startswith(b"\x89PNG\r\n\x1a\n") or head[:6] in (b"GIF87a", b"GIF89a"):
        return "image"
    if head[:4] == b"RIFF":
        return {b"WEBP": "image", b"AVI ": "video"}.get(head[8:12])
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video" if (b"webm" in head[4:68] or b"matroska" in head[4:68]) else None
    if head[4:8] == b"ftyp":
        return _iso_bmff(head)
    if head[4:8] in QUICKTIME_ATOMS:
        return "video"
    if head[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):
        return "image"
    if head[:2] == b"BM" and len(head) >= 28:
        dib = struct.unpack_from("<I", head, 14)[0]
        planes = struct.unpack_from("<H", head, 22 if dib == 12 else 26)[0]
        return "image" if dib in BMP_DIB_SIZES and planes == 1 else None
    return None


def _iso_bmff(head):
    major = head[8:12].decode("latin-1")
    box_end = min(len(head), max(16, struct.unpack_from(">I", head, 0)[0]))
    compatible = [head[i:i + 4].decode("latin-1") for i in range(16, box_end - 3, 4)]
    if major in HEIF_BRANDS:
        return "image"
    if major in NOT_VIDEO_BRANDS:
        return None
    if major in MP4_BRANDS:
        return "video"
    for brand in compatible:
        if brand in HEIF_BRANDS:
            return "image"
        if brand in MP4_BRANDS:
            return "video"
    return None


def walk_media(folder):
    """(files, skipped): files as dicts {path, relative, size, kind} sorted by relative path; skipped as {path, reason}."""
    if not os.path.isdir(folder):
        raise NotADirectoryError(f"Not a folder: {folder}")
    files, skipped = [], []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if not os.path.isfile(path):
                skipped.append({"path": path, "reason": "not a regular file"})
                continue
            try:
                with open(path, "rb") as handle:
                    head = handle.read(SNIFF_BYTES)
            except OSError as err:
                skipped.append({"path": path, "reason": f"unreadable: {err.strerror or err}"})
                continue
            kind = media_kind(head)
            if kind is None:
                skipped.append({"path": path, "reason": "not an image or video"})
            else:
                files.append({"path": path, "relative": relative, "size": os.path.getsize(path), "kind": kind})
    files.sort(key=lambda f: f["relative"])
    return files, skipped
