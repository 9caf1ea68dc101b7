import fs from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath, ffprobePath, runTool, type RunResult } from './ffmpeg.js';

export { ffmpegPath, ffprobePath } from './ffmpeg.js';

export interface VideoProbe {
  /** ffprobe's format_name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  format: string;
  durationSeconds: number;
  /** Coded size, before rotation. */
  width: number;
  height: number;
  codec: string;
  fps: number | null;
  /** Degrees clockwise to turn the frame for display: 0, 90, 180 or 270. */
  rotation: number;
}

export class VideoDecodeError extends Error {
  override name = 'VideoDecodeError';
  constructor(
    message: string,
    /** The last lines ffmpeg/ffprobe wrote to stderr, for logs. */
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export interface ExtractedFrame {
  path: string;
  timestampSeconds: number;
}

export interface FrameOptions {
  maxFrames: number;
  intervalSeconds: number;
  sceneThreshold: number;
}

export const DEFAULT_FRAME_OPTIONS: FrameOptions = Object.freeze({ maxFrames: 30, intervalSeconds: 1, sceneThreshold: 0.3 });

// Only local files: a crafted playlist must not make ffmpeg fetch URLs.
const INPUT_ARGS = ['-protocol_whitelist', 'file'];

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: ProbeStream[];
}

export async function probeVideo(filePath: string, signal?: AbortSignal): Promise<VideoProbe> {
  const input = fileUrl(filePath);
  const args = ['-v', 'error', ...INPUT_ARGS, '-print_format', 'json', '-show_format', '-show_streams', '-i', input];
  const result = await runTool(ffprobePath(), args, { signal, captureStdout: true });
  if (result.exitCode !== 0) throw decodeError(result, input);

  const output = JSON.parse(result.stdout) as ProbeOutput;
  const format = output.format?.format_name ?? '';
  const stream = output.streams?.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!stream) throw new VideoDecodeError('not a video: no video stream');
  if (format === 'image2' || format.endsWith('_pipe')) throw new VideoDecodeError('not a video: a still image');

  const durationSeconds = positive(output.format?.duration) ?? positive(stream.duration);
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  if (durationSeconds === null) throw new VideoDecodeError('not a decodable video: unknown duration');
  if (width <= 0 || height <= 0) throw new VideoDecodeError('not a decodable video: unknown frame size');
  return { format, durationSeconds, width, height, codec: stream.codec_name ?? 'unknown', fps: frameRate(stream.avg_frame_rate), rotation: rotation(stream) };
}

/**
 * Frames at scene changes (always including t=0), or one every intervalSeconds when fewer than two scenes are found,
 * capped at maxFrames by an even spread. Writes `frame-0001.jpg`… into outDir, replacing any left from an earlier run.
 */
export async function extractFrames(filePath: string, outDir: string, options: FrameOptions, signal?: AbortSignal): Promise<ExtractedFrame[]> {
  checkFrameOptions(options);
  await probeVideo(filePath, signal);
  await fs.mkdir(outDir, { recursive: true });
  await removeFrames(outDir);
  try {
    const sceneSelect = `eq(n,0)+gt(scene,${options.sceneThreshold})`;
    let frames = await selectFrames(filePath, outDir, sceneSelect, signal);
    if (frames.length < 2) {
      await removeFrames(outDir);
      const step = options.intervalSeconds;
      frames = await selectFrames(filePath, outDir, `if(isnan(prev_selected_t),1,gt(floor(t/${step}),floor(prev_selected_t/${step})))`, signal);
    }
    if (frames.length === 0) throw new VideoDecodeError('not a decodable video: no frame could be decoded');
    return await keepEvenSpread(frames, options.maxFrames, outDir);
  } catch (err) {
    await removeFrames(outDir).catch(() => undefined);
    throw err;
  }
}

async function selectFrames(filePath: string, outDir: string, selectExpr: string, signal: AbortSignal | undefined): Promise<ExtractedFrame[]> {
  const input = fileUrl(filePath);
  // '%' is image2's pattern character, so a literal one in the directory must be doubled.
  const output = `${fileUrl(outDir).replaceAll('%', '%%')}${path.sep}frame-%04d.jpg`;
  const args = ['-hide_banner', '-nostdin', '-nostats', '-y', ...INPUT_ARGS, '-i', input, '-map', '0:v:0', '-an', '-sn', '-dn'];
  args.push('-vf', `select='${selectExpr}',showinfo`, '-vsync', 'vfr', '-q:v', '3', output);

  const timestamps: number[] = [];
  const result = await runTool(ffmpegPath(), args, {
    signal,
    onStderrLine: (line) => {
      if (!line.includes('Parsed_showinfo')) return false;
      const match = /\sn:\s*\d+\s.*\bpts_time:(\S+)/.exec(line);
      if (match) timestamps.push(Number(match[1]));
      return true;
    },
  });
  if (result.exitCode !== 0) throw decodeError(result, input);

  const files = await listFrames(outDir);
  // showinfo runs before the encoder, so a frame it saw may be missing on disk; pair them by position.
  for (const extra of files.slice(timestamps.length)) await fs.rm(path.join(outDir, extra), { force: true });
  let previous = 0;
  return files.slice(0, timestamps.length).map((name, i) => {
    const t = timestamps[i] ?? Number.NaN;
    previous = Number.isFinite(t) ? t : previous;
    return { path: path.join(outDir, name), timestampSeconds: previous };
  });
}

async function keepEvenSpread(frames: ExtractedFrame[], maxFrames: number, outDir: string): Promise<ExtractedFrame[]> {
  if (frames.length <= maxFrames) return frames;
  const keep = new Set<number>();
  for (let i = 0; i < maxFrames; i++) keep.add(maxFrames === 1 ? 0 : Math.round((i * (frames.length - 1)) / (maxFrames - 1)));
  const kept: ExtractedFrame[] = [];
  for (const [i, frame] of frames.entries()) {
    if (!keep.has(i)) {
      await fs.rm(frame.path, { force: true });
      continue;
    }
    // Renumbering in ascending order never overwrites a frame still to be read.
    const target = path.join(outDir, frameName(kept.length + 1));
    if (target !== frame.path) await fs.rename(frame.path, target);
    kept.push({ path: target, timestampSeconds: frame.timestampSeconds });
  }
  return kept;
}

const FRAME_FILE = /^frame-(\d{4,})\.jpg$/;

function frameName(n: number): string {
  return `frame-${String(n).padStart(4, '0')}.jpg`;
}

async function listFrames(outDir: string): Promise<string[]> {
  const names = (await fs.readdir(outDir)).filter((name) => FRAME_FILE.test(name));
  const index = (name: string) => Number(FRAME_FILE.exec(name)?.[1]);
  return names.sort((a, b) => index(a) - index(b));
}

async function removeFrames(outDir: string): Promise<void> {
  for (const name of await listFrames(outDir)) await fs.rm(path.join(outDir, name), { force: true });
}

function checkFrameOptions({ maxFrames, intervalSeconds, sceneThreshold }: FrameOptions): void {
  if (!Number.isInteger(maxFrames) || maxFrames < 1) throw new RangeError(`maxFrames must be a positive integer, got ${maxFrames}`);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds <= 0) throw new RangeError(`intervalSeconds must be positive, got ${intervalSeconds}`);
  if (!(sceneThreshold >= 0 && sceneThreshold <= 1)) throw new RangeError(`sceneThreshold must be between 0 and 1, got ${sceneThreshold}`);
}

// The file: prefix stops a name like `http:x` or `-y` being read as a protocol or an option.
function fileUrl(filePath: string): string {
  return `file:${path.resolve(filePath)}`;
}

function decodeError(result: RunResult, input: string): VideoDecodeError {
  const last = result.stderrTail.at(-1) ?? '';
  const reason = last
    .replace(`${input}: `, '')
    .replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '')
    .trim();
  return new VideoDecodeError(`not a decodable video: ${reason || `exit code ${result.exitCode}`}`, result.stderrTail);
}

function positive(value: string | undefined): number | null {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : null;
}

function frameRate(value: string | undefined): number | null {
  const [num, den] = (value ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return null;
  return num / den;
}

function rotation(stream: ProbeStream): number {
  // Display-matrix rotation is counter-clockwise; the legacy `rotate` tag is clockwise.
  const fromMatrix = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = fromMatrix !== undefined ? -fromMatrix : Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(degrees)) return 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}
