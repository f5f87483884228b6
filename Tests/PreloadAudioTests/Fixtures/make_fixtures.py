#!/usr/bin/env python3
"""Makes the audio plugin's test fixtures and their expected samples.

Usage: python3 Tests/PreloadAudioTests/Fixtures/make_fixtures.py   (needs numpy, sox, flac, oggenc, lame,
opusenc and libsndfile1: `.ci/system-packages install audio-tools`, `pip install numpy`)

The ADPCM WAVs (tone-ms-adpcm.wav, tone-ima-adpcm.wav: Microsoft and IMA ADPCM, written by sox)
decode through libsndfile, like the compressed encodings; their expected samples are libsndfile's,
up to the frame count of their `fact` chunk (libsndfile also gives the last block's padding; SDL
stops at the `fact` count, and so does the plugin).

Every fixture comes from one deterministic signal (two tones and a little noise), written as WAV
by this script's own writer (so its samples are known exactly) and encoded by the reference
command-line encoders. `expected.json` records, for each fixture, what libsndfile (the system's
libsndfile.so.1, called through ctypes, independently of the plugin) decodes: frames, rate,
channels, and the SHA-256 of the 16-bit and float samples by the plugin's documented rules (for
MP3, libmpg123's own decode, which equals libsndfile's on tagged files):
float is libsndfile's normalised float output; 16-bit is libsndfile's own for WAV integer PCM
and FLAC (the file's samples), libvorbisfile's ov_read for Vorbis, libmpg123's own 16-bit
output for MP3, and for float WAV and Opus float x 32767 rounded to nearest, clipped. For the 16-bit PCM sources it also checks that the file's own samples are
what libsndfile gives back (lossless identity).
"""
import ctypes
import hashlib
import json
import os
import struct
import subprocess
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(here, exist_ok=True)


def signal(rate, channels, seconds):
    t = np.arange(int(rate * seconds)) / rate
    rng = np.random.default_rng(7)
    left = 0.45 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 1250 * t) + 0.05 * rng.standard_normal(t.size)
    right = 0.4 * np.sin(2 * np.pi * 660 * t + 0.3) + 0.05 * rng.standard_normal(t.size)
    columns = [left, right, 0.3 * np.sin(2 * np.pi * 220 * t), 0.2 * np.sin(2 * np.pi * 880 * t)][:channels]
    return np.clip(np.stack(columns, axis=1), -0.999, 0.999)


def wav(path, rate, samples, kind, extensible=False):
    """Writes samples (frames x channels floats) as WAV of `kind`: u8, s16, s24, s32, f32, f64."""
    frames, channels = samples.shape
    if kind == "u8":
        data = (np.round(samples * 127) + 128).astype(np.uint8).tobytes()
        bits, tag = 8, 1
    elif kind == "s16":
        data = np.round(samples * 32767).astype("<i2").tobytes()
        bits, tag = 16, 1
    elif kind == "s24":
        ints = np.round(samples * 8388607).astype("<i4")
        data = b"".join(v.to_bytes(4, "little", signed=True)[:3] for v in ints.ravel().tolist())
        bits, tag = 24, 1
    elif kind == "s32":
        data = np.round(samples * 2147483000).astype("<i4").tobytes()
        bits, tag = 32, 1
    elif kind == "f32":
        data = (samples * 1.05).astype("<f4").tobytes()  # a little over full scale: clipping is tested
        bits, tag = 32, 3
    else:
        data = samples.astype("<f8").tobytes()
        bits, tag = 64, 3
    block = channels * bits // 8
    if extensible:
        guid = struct.pack("<H", tag) + bytes([0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71])
        fmt = struct.pack("<HHIIHHHHI", 0xFFFE, channels, rate, rate * block, block, bits, 22, bits, (1 << channels) - 1) + guid
    else:
        fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"LIST" + struct.pack("<I", 4) + b"INFO"  # a chunk players skip
    body += b"data" + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


sndfile = ctypes.CDLL("libsndfile.so.1")


class SFInfo(ctypes.Structure):
    _fields_ = [("frames", ctypes.c_int64), ("samplerate", ctypes.c_int), ("channels", ctypes.c_int),
                ("format", ctypes.c_int), ("sections", ctypes.c_int), ("seekable", ctypes.c_int)]


sndfile.sf_open.restype = ctypes.c_void_p
sndfile.sf_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(SFInfo)]
sndfile.sf_readf_float.restype = ctypes.c_int64
sndfile.sf_readf_float.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
sndfile.sf_readf_short.restype = ctypes.c_int64
sndfile.sf_readf_short.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
sndfile.sf_command.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
sndfile.sf_close.argtypes = [ctypes.c_void_p]


def decode(path, dtype):
    info = SFInfo()
    handle = sndfile.sf_open(path.encode(), 0x10, ctypes.byref(info))
    assert handle, path
    sndfile.sf_command(handle, 0x1013, None, 1)  # SFC_SET_NORM_FLOAT
    sndfile.sf_command(handle, 0x10C0, None, 1)  # SFC_SET_CLIPPING
    out = np.zeros((info.frames, info.channels), dtype=dtype)
    read = (sndfile.sf_readf_float if dtype == np.float32 else sndfile.sf_readf_short)(handle, out.ctypes.data, info.frames)
    sndfile.sf_close(handle)
    assert read == info.frames, (path, read, info.frames)
    return info, out


mpg123 = ctypes.CDLL("libmpg123.so.0")
mpg123.mpg123_new.restype = ctypes.c_void_p
mpg123.mpg123_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
mpg123.mpg123_param.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_double]
mpg123.mpg123_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
mpg123.mpg123_scan.argtypes = [ctypes.c_void_p]
mpg123.mpg123_length.restype = ctypes.c_int64
mpg123.mpg123_length.argtypes = [ctypes.c_void_p]
mpg123.mpg123_getformat.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_long), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
mpg123.mpg123_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
mpg123.mpg123_close.argtypes = [ctypes.c_void_p]
mpg123.mpg123_delete.argtypes = [ctypes.c_void_p]
mpg123.mpg123_init()


def decode_mp3(path, dtype=np.float32):
    """libmpg123's own decode (gapless, after a full scan) to float or 16-bit, as the plugin asks for it."""
    handle = mpg123.mpg123_new(None, ctypes.byref(ctypes.c_int()))
    flags = 0x20 | 0x40 | (0x400 if dtype == np.float32 else 0)  # QUIET | GAPLESS | FORCE_FLOAT
    mpg123.mpg123_param(handle, 2, flags, 0.0)  # MPG123_ADD_FLAGS
    assert mpg123.mpg123_open(handle, path.encode()) == 0 and mpg123.mpg123_scan(handle) == 0, path
    rate, channels, encoding = ctypes.c_long(), ctypes.c_int(), ctypes.c_int()
    mpg123.mpg123_getformat(handle, ctypes.byref(rate), ctypes.byref(channels), ctypes.byref(encoding))
    frames = mpg123.mpg123_length(handle)
    out = np.zeros((frames, channels.value), dtype=dtype)
    done = ctypes.c_size_t()
    mpg123.mpg123_read(handle, out.ctypes.data, out.nbytes, ctypes.byref(done))
    assert done.value == out.nbytes, (path, done.value, out.nbytes)
    mpg123.mpg123_close(handle)
    mpg123.mpg123_delete(handle)
    info = SFInfo(frames=frames, samplerate=rate.value, channels=channels.value)
    return info, out


vorbisfile = ctypes.CDLL("libvorbisfile.so.3")
vorbisfile.ov_fopen.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
vorbisfile.ov_pcm_total.restype = ctypes.c_int64
vorbisfile.ov_pcm_total.argtypes = [ctypes.c_void_p, ctypes.c_int]
vorbisfile.ov_read.restype = ctypes.c_long
vorbisfile.ov_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
vorbisfile.ov_clear.argtypes = [ctypes.c_void_p]


def decode_vorbis16(path, channels):
    """libvorbisfile's own 16-bit decode (ov_read), as the plugin asks for it."""
    vf = ctypes.create_string_buffer(4096)  # an OggVorbis_File is 944 bytes
    assert vorbisfile.ov_fopen(path.encode(), vf) == 0, path
    out = np.zeros((vorbisfile.ov_pcm_total(vf, -1), channels), dtype="<i2")
    got, link = 0, ctypes.c_int()
    while got < out.nbytes:
        read = vorbisfile.ov_read(vf, out.ctypes.data + got, min(out.nbytes - got, 65536), 0, 2, 1, ctypes.byref(link))
        assert read > 0, path
        got += read
    vorbisfile.ov_clear(vf)
    return out


def fact_frames(path):
    """The sample count of a WAV's fact chunk, or None."""
    data = open(path, "rb").read()
    position = 12
    while position + 8 <= len(data):
        chunk, size = data[position:position + 4], struct.unpack("<I", data[position + 4:position + 8])[0]
        if chunk == b"fact" and size >= 4:
            return struct.unpack("<I", data[position + 8:position + 12])[0] or None
        position += 8 + size + (size & 1)
    return None


def clipped16(floats):
    return np.clip(np.rint(floats.astype(np.float32) * np.float32(32767)), -32768, 32767).astype("<i2")


def main():
    fixtures = {}
    stereo = signal(44100, 2, 0.1)
    for kind in ["u8", "s16", "s24", "s32", "f32", "f64"]:
        wav(os.path.join(here, f"tone-{kind}.wav"), 44100, stereo, kind)
        fixtures[f"tone-{kind}.wav"] = ("wav", kind)
    wav(os.path.join(here, "tone-s24-extensible.wav"), 48000, signal(48000, 4, 0.1), "s24", extensible=True)
    fixtures["tone-s24-extensible.wav"] = ("wav", "s24")
    mono = signal(22050, 1, 0.5)
    wav(os.path.join(here, "blip-mono.wav"), 22050, mono, "s16")
    fixtures["blip-mono.wav"] = ("wav", "s16")
    source = os.path.join(here, "tone-s16.wav")
    run("flac", "-f", "-s", "-5", "-o", os.path.join(here, "tone.flac"), source)
    fixtures["tone.flac"] = ("flac", "s16")
    wav("/tmp/preload-fixture-s24.wav", 44100, stereo, "s24")
    run("flac", "-f", "-s", "-5", "-o", os.path.join(here, "tone-24bit.flac"), "/tmp/preload-fixture-s24.wav")
    fixtures["tone-24bit.flac"] = ("flac", "s24")
    run("oggenc", "-Q", "-q", "3", "-o", os.path.join(here, "tone.ogg"), source)
    fixtures["tone.ogg"] = ("vorbis", None)
    run("lame", "--quiet", "-V", "4", source, os.path.join(here, "tone.mp3"))
    fixtures["tone.mp3"] = ("mp3", None)
    # An MP3 without its LAME/Xing header (lame -t), VBR: libsndfile stops at libmpg123's length
    # estimate (libsndfile issue #1001); libmpg123 with a scan gives every frame.
    wav("/tmp/preload-fixture-untagged.wav", 22050, signal(22050, 1, 3), "s16")
    run("lame", "--quiet", "-t", "-V", "6", "/tmp/preload-fixture-untagged.wav", os.path.join(here, "untagged-vbr.mp3"))
    fixtures["untagged-vbr.mp3"] = ("mp3", None)
    for codec in ["ms-adpcm", "ima-adpcm"]:
        run("sox", "-D", source, "-e", codec, os.path.join(here, f"tone-{codec}.wav"))
        fixtures[f"tone-{codec}.wav"] = ("wav", "adpcm")
    run("opusenc", "--quiet", "--bitrate", "48", source, os.path.join(here, "tone.opus"))
    fixtures["tone.opus"] = ("opus", None)
    # Twelve seconds of mono at a low quality: longer than the 10 seconds of a sound, so music.
    wav("/tmp/preload-fixture-theme.wav", 22050, signal(22050, 1, 12), "s16")
    run("oggenc", "-Q", "-q", "0", "-o", os.path.join(here, "theme.ogg"), "/tmp/preload-fixture-theme.wav")
    fixtures["theme.ogg"] = ("vorbis", None)

    expected = {}
    for name, (encoding, kind) in sorted(fixtures.items()):
        path = os.path.join(here, name)
        info, floats = decode_mp3(path) if encoding == "mp3" else decode(path, np.float32)
        if encoding == "mp3":
            shorts = decode_mp3(path, np.int16)[1].astype("<i2")
        elif encoding == "vorbis":
            shorts = decode_vorbis16(path, int(info.channels))
        elif kind in (None, "f32", "f64"):
            shorts = clipped16(floats)
        else:
            shorts = decode(path, np.int16)[1].astype("<i2")
        if kind == "adpcm" and fact_frames(path):
            info.frames = min(info.frames, fact_frames(path))
            floats, shorts = floats[:info.frames], shorts[:info.frames]
        if name in ("tone-s16.wav", "tone.flac", "blip-mono.wav"):
            original = np.round((stereo if name != "blip-mono.wav" else mono) * 32767).astype("<i2")
            assert np.array_equal(original, shorts), f"{name}: libsndfile's samples differ from the file's own"
        expected[name] = {
            "encoding": encoding, "frames": int(info.frames), "sampleRate": int(info.samplerate), "channels": int(info.channels),
            "int16": hashlib.sha256(shorts.tobytes()).hexdigest(),
            "float32": hashlib.sha256(floats.astype("<f4").tobytes()).hexdigest(),
        }
    with open(os.path.join(here, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{len(expected)} fixtures in {here}")


if __name__ == "__main__":
    sys.exit(main())
