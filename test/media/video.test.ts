import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTool } from '../../src/adapters/media/ffmpeg.js';
import {
  DEFAULT_FRAME_OPTIONS,
  extractFrames,
  ffmpegPath,
  probeVideo,
  VideoDecodeError,
  type ExtractedFrame,
} from '../../src/adapters/media/video.js';

const run = promisify(execFile);
const ffmpeg = ffmpegPath();
const encoders = execFileSync(ffmpeg, ['-hide_banner', '-encoders'], { encoding: 'utf8' });
const hasEncoder = (name: string) => new RegExp(`^\\s*V\\S*\\s+${name}\\s`, 'm').test(encoders);
const h264 = hasEncoder('libx264') ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] : ['-c:v', 'mpeg4'];
const h264Name = hasEncoder('libx264') ? 'h264' : 'mpeg4';
const testsrc = ['-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=25'];
const color = (name: string, seconds: number) => ['-f', 'lavfi', '-i', `color=${name}:size=320x240:rate=25:duration=${seconds}`];

let dir: string;
const clip = (name: string) => path.join(dir, name);

async function make(name: string, args: string[]): Promise<void> {
  await run(ffmpeg, ['-hide_banner', '-v', 'error', '-nostdin', '-y', ...args, clip(name)]);
}

/** Seeded noise, so a failure reproduces: the same bytes every run. */
function noise(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 0x2545f491;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

async function frameFiles(outDir: string): Promise<string[]> {
  return (await fs.readdir(outDir).catch(() => [])).sort();
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-video-'));
  await make('testsrc.mp4', [...testsrc, ...h264]);
  await make('testsrc.mkv', [...testsrc, '-c:v', 'mpeg4']);
  await make('testsrc.avi', [...testsrc, '-c:v', 'mpeg4']);
  if (hasEncoder('libvpx')) await make('testsrc.webm', [...testsrc, '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k']);
  // -display_rotation only exists from ffmpeg 6; older builds take the rotate tag instead.
  await make('rotated.mov', ['-display_rotation', '180', '-i', clip('testsrc.mp4'), '-c', 'copy']).catch(() =>
    make('rotated.mov', ['-i', clip('testsrc.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=180']),
  );
  const cuts = [...color('red', 1), ...color('blue', 1), ...color('green', 1)];
  await make('cuts.mp4', [...cuts, '-filter_complex', '[0][1][2]concat=n=3:v=1:a=0', ...h264]);
  await make('static.mp4', [...color('gray', 3), ...h264]);
  await make('still.jpg', [...color('red', 1), '-frames:v', '1']);
  await make('tone.mkv', ['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'flac']);
  await fs.writeFile(clip('corrupt.mp4'), noise(64 * 1024));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('probeVideo', () => {
  it('reads an MP4', async () => {
    const probe = await probeVideo(clip('testsrc.mp4'));
    expect(probe).toMatchObject({ width: 320, height: 240, codec: h264Name, fps: 25, rotation: 0 });
    expect(probe.format).toContain('mp4');
    expect(Math.abs(probe.durationSeconds - 3)).toBeLessThan(0.2);
  });

  it.each([
    ['testsrc.mkv', 'matroska', 'mpeg4'],
    ['testsrc.avi', 'avi', 'mpeg4'],
    ['rotated.mov', 'mov', h264Name],
  ])('reads %s', async (name, format, codec) => {
    const probe = await probeVideo(clip(name));
    expect(probe).toMatchObject({ width: 320, height: 240, codec, fps: 25 });
    expect(probe.format).toContain(format);
    expect(Math.abs(probe.durationSeconds - 3)).toBeLessThan(0.2);
  });

  it.skipIf(!hasEncoder('libvpx'))('reads a VP8 WebM, whose duration is only on the container', async () => {
    const probe = await probeVideo(clip('testsrc.webm'));
    expect(probe).toMatchObject({ width: 320, height: 240, codec: 'vp8', fps: 25, rotation: 0 });
    expect(Math.abs(probe.durationSeconds - 3)).toBeLessThan(0.2);
  });

  it('reports the display rotation', async () => {
    expect((await probeVideo(clip('rotated.mov'))).rotation).toBe(180);
  });

  it('rejects a corrupt file, an audio file and a still image with VideoDecodeError', async () => {
    await expect(probeVideo(clip('corrupt.mp4'))).rejects.toThrow(/^not a decodable video: \S/);
    await expect(probeVideo(clip('corrupt.mp4'))).rejects.toBeInstanceOf(VideoDecodeError);
    await expect(probeVideo(clip('tone.mkv'))).rejects.toThrow(new VideoDecodeError('not a video: no video stream'));
    await expect(probeVideo(clip('still.jpg'))).rejects.toThrow(new VideoDecodeError('not a video: a still image'));
    await expect(probeVideo(clip('missing.mp4'))).rejects.toBeInstanceOf(VideoDecodeError);
  });

  it('rejects with the reason of an already-aborted signal without starting ffprobe', async () => {
    const reason = new Error('cancelled by user');
    const started = Date.now();
    await expect(probeVideo(clip('testsrc.mp4'), AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(50);
  });
});

describe('extractFrames', () => {
  const outDir = (name: string) => path.join(dir, 'frames', name);
  const times = (frames: ExtractedFrame[]) => frames.map((f) => f.timestampSeconds);

  it('takes a frame at the start and at each hard cut', async () => {
    const frames = await extractFrames(clip('cuts.mp4'), outDir('cuts'), DEFAULT_FRAME_OPTIONS);
    expect(times(frames)).toHaveLength(3);
    times(frames).forEach((t, i) => expect(Math.abs(t - i)).toBeLessThan(0.1));
    expect(frames.map((f) => path.basename(f.path))).toEqual(['frame-0001.jpg', 'frame-0002.jpg', 'frame-0003.jpg']);
    expect(await frameFiles(outDir('cuts'))).toEqual(['frame-0001.jpg', 'frame-0002.jpg', 'frame-0003.jpg']);
    const jpeg = await fs.readFile(frames[1]!.path);
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('falls back to one frame per interval on a static clip', async () => {
    const frames = await extractFrames(clip('static.mp4'), outDir('static'), DEFAULT_FRAME_OPTIONS);
    expect(times(frames)).toEqual([0, 1, 2]);
    expect(await frameFiles(outDir('static'))).toHaveLength(3);
  });

  it('keeps an evenly spread subset when there are more than maxFrames, deleting the rest', async () => {
    const frames = await extractFrames(clip('testsrc.mp4'), outDir('capped'), { maxFrames: 4, intervalSeconds: 0.25, sceneThreshold: 0.3 });
    // 12 interval frames at 0, 0.24, 0.52…, 2.76; indices 0, 4, 7 and 11 survive.
    expect(times(frames)).toHaveLength(4);
    expect(times(frames)[0]).toBe(0);
    expect(times(frames)).toEqual([...times(frames)].sort((a, b) => a - b));
    expect(times(frames)[3]).toBeGreaterThan(2.5);
    expect(await frameFiles(outDir('capped'))).toEqual(['frame-0001.jpg', 'frame-0002.jpg', 'frame-0003.jpg', 'frame-0004.jpg']);
  });

  it('caps scene frames too, keeping the first and the last', async () => {
    const frames = await extractFrames(clip('cuts.mp4'), outDir('cuts-capped'), { ...DEFAULT_FRAME_OPTIONS, maxFrames: 2 });
    expect(times(frames).map(Math.round)).toEqual([0, 2]);
    expect(await frameFiles(outDir('cuts-capped'))).toEqual(['frame-0001.jpg', 'frame-0002.jpg']);
  });

  it.skipIf(!hasEncoder('libvpx'))('decodes WebM', async () => {
    const frames = await extractFrames(clip('testsrc.webm'), outDir('webm'), DEFAULT_FRAME_OPTIONS);
    expect(times(frames)).toEqual([0, 1, 2]);
  });

  it('replaces frames left by an earlier run', async () => {
    await fs.mkdir(outDir('rerun'), { recursive: true });
    await fs.writeFile(path.join(outDir('rerun'), 'frame-0009.jpg'), 'stale');
    await fs.writeFile(path.join(outDir('rerun'), 'notes.txt'), 'not ours');
    await extractFrames(clip('cuts.mp4'), outDir('rerun'), DEFAULT_FRAME_OPTIONS);
    expect(await frameFiles(outDir('rerun'))).toEqual(['frame-0001.jpg', 'frame-0002.jpg', 'frame-0003.jpg', 'notes.txt']);
  });

  it('rejects a corrupt file with VideoDecodeError and leaves no frames', async () => {
    await expect(extractFrames(clip('corrupt.mp4'), outDir('corrupt'), DEFAULT_FRAME_OPTIONS)).rejects.toBeInstanceOf(VideoDecodeError);
    expect(await frameFiles(outDir('corrupt'))).toEqual([]);
  });

  it('rejects bad options', async () => {
    await expect(extractFrames(clip('cuts.mp4'), outDir('bad'), { ...DEFAULT_FRAME_OPTIONS, maxFrames: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(extractFrames(clip('cuts.mp4'), outDir('bad'), { ...DEFAULT_FRAME_OPTIONS, intervalSeconds: 0 })).rejects.toBeInstanceOf(RangeError);
  });

  it('rejects with the reason of an already-aborted signal', async () => {
    const reason = new Error('task cancelled');
    await expect(extractFrames(clip('cuts.mp4'), outDir('aborted'), DEFAULT_FRAME_OPTIONS, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(await frameFiles(outDir('aborted'))).toEqual([]);
  });
});

describe('runTool', () => {
  it('kills the child when the signal aborts mid-run and rejects with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    const endless = ['-nostdin', '-f', 'lavfi', '-i', 'testsrc=size=640x480', '-f', 'null', '-'];
    await expect(runTool(ffmpeg, endless, { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps only the last stderr lines', async () => {
    const result = await runTool(ffmpeg, ['-hide_banner', '-nostdin', '-i', clip('missing.mp4')], { stderrTailLines: 2 });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderrTail.length).toBeLessThanOrEqual(2);
    expect(result.stderrTail.join('\n')).toMatch(/No such file/);
  });

  it('rejects when the binary cannot start', async () => {
    await expect(runTool(path.join(dir, 'no-such-ffmpeg'), [])).rejects.toThrow(/could not start/);
  });
});

describe('ffmpegPath', () => {
  it.skipIf(process.platform === 'win32')('prefers a system ffmpeg on PATH, looks once, and falls back to the npm binary for ffprobe', async () => {
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin, { recursive: true });
    await fs.writeFile(path.join(bin, 'ffmpeg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const originalPath = process.env.PATH;
    try {
      process.env.PATH = bin;
      vi.resetModules();
      const fresh = await import('../../src/adapters/media/ffmpeg.js');
      expect(fresh.ffmpegPath()).toBe(path.join(bin, 'ffmpeg'));
      expect(fresh.ffprobePath()).toMatch(/@ffprobe-installer/);
      process.env.PATH = '';
      expect(fresh.ffmpegPath()).toBe(path.join(bin, 'ffmpeg'));
    } finally {
      process.env.PATH = originalPath;
      // Files after this one in the same worker (isolate: false) must not get the instance that found the fake ffmpeg.
      vi.resetModules();
    }
  });
});
