#!/usr/bin/env python3
"""Writes a game-like level's audio: sound effects in every encoding and a few music tracks.

Usage: python3 Benchmarks/Scripts/make_audio_corpus.py DIR [--effects N] [--tracks N] [--track-seconds S]
(needs numpy and the encoders of `.ci/system-packages install audio-tools`)

Effects: N files of 0.3 to 3 seconds, 44.1 kHz stereo (Opus 48 kHz), spread over Ogg Vorbis
(40%), WAV 16-bit (25%), MP3 (20%), FLAC (10%) and Opus (5%), as a game ships them. Tracks:
Ogg Vorbis and MP3 (alternating) of S seconds. Deterministic: the same arguments write the same
signals (the encoders' own bytes may differ, Ogg serial numbers among them).
"""
import argparse
import os
import struct
import subprocess

import numpy as np


def signal(rate, seconds, seed, decays=True):
    rng = np.random.default_rng(seed)
    t = np.arange(int(rate * seconds)) / rate
    pitch = 200 + 600 * rng.random()
    envelope = np.exp(-t * (1 + 4 * rng.random())) if decays else 0.6 + 0.4 * np.sin(2 * np.pi * 0.25 * t)
    left = envelope * (0.5 * np.sin(2 * np.pi * pitch * t) + 0.1 * rng.standard_normal(t.size))
    right = envelope * (0.4 * np.sin(2 * np.pi * pitch * 1.5 * t) + 0.1 * rng.standard_normal(t.size))
    return np.clip(np.stack([left, right], axis=1), -0.99, 0.99)


def write_wav(path, rate, samples):
    data = np.round(samples * 32767).astype("<i2").tobytes()
    fmt = struct.pack("<HHIIHH", 1, 2, rate, rate * 4, 4, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(data)) + data
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def encode(source, target):
    extension = os.path.splitext(target)[1]
    command = {
        ".ogg": ["oggenc", "-Q", "-q", "4", "-o", target, source],
        ".mp3": ["lame", "--quiet", "-V", "4", source, target],
        ".flac": ["flac", "-f", "-s", "-5", "-o", target, source],
        ".opus": ["opusenc", "--quiet", "--bitrate", "96", source, target],
    }[extension]
    subprocess.run(command, check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--effects", type=int, default=200)
    parser.add_argument("--tracks", type=int, default=4)
    parser.add_argument("--track-seconds", type=float, default=60)
    args = parser.parse_args()
    effects = os.path.join(args.folder, "sfx")
    music = os.path.join(args.folder, "music")
    os.makedirs(effects, exist_ok=True)
    os.makedirs(music, exist_ok=True)
    scratch = os.path.join(args.folder, ".source.wav")
    kinds = [".ogg"] * 8 + [".wav"] * 5 + [".mp3"] * 4 + [".flac"] * 2 + [".opus"]
    rng = np.random.default_rng(1)
    for index in range(args.effects):
        kind = kinds[index % len(kinds)]
        samples = signal(44100, 0.3 + 2.7 * rng.random(), index)
        target = os.path.join(effects, f"effect-{index:04d}{kind}")
        if kind == ".wav":
            write_wav(target, 44100, samples)
        else:
            write_wav(scratch, 44100, samples)
            encode(scratch, target)
    for index in range(args.tracks):
        kind = ".ogg" if index % 2 == 0 else ".mp3"
        write_wav(scratch, 44100, signal(44100, args.track_seconds, 1000 + index, decays=False))
        encode(scratch, os.path.join(music, f"track-{index}{kind}"))
    os.remove(scratch)
    print(f"{args.effects} effects and {args.tracks} tracks of {args.track_seconds:g} s in {args.folder}")


if __name__ == "__main__":
    main()
