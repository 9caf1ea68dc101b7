import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../../src/adapters/media/ffmpeg.js';
import { SNIFF_BYTES, sniff, type Sniffed } from '../../src/adapters/media/sniff.js';

const photos = path.join(import.meta.dirname, '../fixtures/photos');
const UNKNOWN: Sniffed = { kind: 'unknown', format: 'unknown', mime: 'application/octet-stream' };

const head = (bytes: Buffer) => sniff(bytes.subarray(0, SNIFF_BYTES));

describe('sniff: images', () => {
  const dog = () => sharp(path.join(photos, 'dog.jpg')).resize(64);

  it('recognises the fixture photos', async () => {
    expect(head(await readFile(path.join(photos, 'dog.jpg')))).toEqual({ kind: 'image', format: 'jpeg', mime: 'image/jpeg' });
    expect(head(await readFile(path.join(photos, 'chelsea.png')))).toEqual({ kind: 'image', format: 'png', mime: 'image/png' });
    expect(head(await readFile(path.join(photos, 'small.heic')))).toEqual({ kind: 'image', format: 'heic', mime: 'image/heic' });
  });

  it.each([
    ['webp', 'image/webp', () => dog().webp().toBuffer()],
    ['avif', 'image/avif', () => dog().avif().toBuffer()],
    ['tiff', 'image/tiff', () => dog().tiff().toBuffer()],
    ['gif', 'image/gif', () => dog().gif().toBuffer()],
  ])('recognises %s written by sharp', async (format, mime, encode) => {
    expect(head(await encode())).toEqual({ kind: 'image', format, mime });
  });

  it('recognises big-endian TIFF and BigTIFF headers', () => {
    expect(sniff(bytes('MM', [0, 0x2a], zeros(8))).format).toBe('tiff');
    expect(sniff(bytes('II', [0x2b, 0], zeros(8))).format).toBe('tiff');
  });

  it('recognises a 24-bit BMP', () => {
    expect(head(tinyBmp())).toEqual({ kind: 'image', format: 'bmp', mime: 'image/bmp' });
  });

  it('does not take text that starts with BM for a bitmap', () => {
    expect(sniff(Buffer.from('BMW and Mercedes are German car makers.'))).toEqual(UNKNOWN);
  });
});

describe('sniff: ISO-BMFF brands', () => {
  it.each([
    ['avif', [], 'avif', 'image/avif'],
    ['avis', ['avis', 'msf1'], 'avif', 'image/avif'],
    ['mif1', ['mif1', 'avif', 'miaf'], 'avif', 'image/avif'],
    ['msf1', ['msf1', 'avis'], 'avif', 'image/avif'],
    ['heic', ['mif1', 'heic'], 'heic', 'image/heic'],
    ['heix', [], 'heic', 'image/heic'],
    ['heim', [], 'heic', 'image/heic'],
    ['heis', [], 'heic', 'image/heic'],
    ['hevc', ['msf1', 'hevc'], 'heic', 'image/heic-sequence'],
    ['hevx', [], 'heic', 'image/heic-sequence'],
    ['mif1', ['mif1', 'heic'], 'heic', 'image/heic'],
    ['mif1', ['mif1', 'miaf'], 'heic', 'image/heif'],
    ['msf1', ['msf1'], 'heic', 'image/heif-sequence'],
  ])('major %s with %j is %s (%s)', (major, compatible, format, mime) => {
    expect(sniff(ftyp(major, compatible))).toEqual({ kind: 'image', format, mime });
  });

  it.each([
    ['isom', ['isom', 'iso2', 'avc1', 'mp41'], 'mp4', 'video/mp4'],
    ['iso2', [], 'mp4', 'video/mp4'],
    ['mp41', [], 'mp4', 'video/mp4'],
    ['mp42', ['mp42', 'isom'], 'mp4', 'video/mp4'],
    ['avc1', [], 'mp4', 'video/mp4'],
    ['M4V ', ['M4V ', 'M4A ', 'mp42', 'isom'], 'mp4', 'video/mp4'],
    ['dash', ['iso6', 'mp41'], 'mp4', 'video/mp4'],
    ['3gp5', ['3gp5', 'isom'], 'mp4', 'video/mp4'],
    ['qt  ', ['qt  '], 'mov', 'video/quicktime'],
  ])('major %s with %j is %s', (major, compatible, format, mime) => {
    expect(sniff(ftyp(major, compatible))).toEqual({ kind: 'video', format, mime });
  });

  it('does not call audio-only MP4 or unknown brands video', () => {
    expect(sniff(ftyp('M4A ', ['M4A ', 'mp42', 'isom']))).toEqual(UNKNOWN);
    expect(sniff(ftyp('crx ', ['crx ', 'isom']))).toEqual(UNKNOWN);
    expect(sniff(ftyp('abcd', ['efgh']))).toEqual(UNKNOWN);
  });

  it('recognises QuickTime files that open with a moov atom instead of ftyp', () => {
    expect(sniff(bytes([0, 0, 0, 8], 'moov', zeros(8)))).toEqual({ kind: 'video', format: 'mov', mime: 'video/quicktime' });
  });
});

describe('sniff: videos written by ffmpeg', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loupe-sniff-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['mp4', 'mp4', 'video/mp4'],
    ['mov', 'mov', 'video/quicktime'],
    ['webm', 'webm', 'video/webm'],
    ['mkv', 'mkv', 'video/x-matroska'],
    ['avi', 'avi', 'video/x-msvideo'],
  ])('recognises .%s', async (extension, format, mime) => {
    const file = path.join(dir, `clip.${extension}`);
    await promisify(execFile)(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5', '-t', '0.4', file]);
    expect(head(await readFile(file))).toEqual({ kind: 'video', format, mime });
  });

  it('tells Matroska from WebM by DocType, and rejects other EBML documents', () => {
    expect(sniff(ebml('webm')).format).toBe('webm');
    expect(sniff(ebml('matroska')).format).toBe('mkv');
    expect(sniff(ebml('notavideo'))).toEqual(UNKNOWN);
  });
});

describe('sniff: archives', () => {
  it('recognises a zip, an empty zip and a spanned zip', () => {
    const zip = { kind: 'archive', format: 'zip', mime: 'application/zip' };
    expect(sniff(storedZip('a.txt', 'hello'))).toEqual(zip);
    expect(sniff(bytes('PK', [5, 6], zeros(18)))).toEqual(zip);
    expect(sniff(bytes('PK', [7, 8], storedZip('a.txt', 'hello')))).toEqual(zip);
  });

  it('recognises a tar, and a gzipped tar as gzip', () => {
    const tar = ustar('photos/a.txt', 'hello');
    expect(head(tar)).toEqual({ kind: 'archive', format: 'tar', mime: 'application/x-tar' });
    expect(head(gzipSync(tar))).toEqual({ kind: 'archive', format: 'gzip', mime: 'application/gzip' });
  });

  it('does not take a tar whose header checksum is wrong for a tar', () => {
    const tar = ustar('a.txt', 'hello');
    tar[0] = 'b'.charCodeAt(0);
    expect(sniff(tar)).toEqual(UNKNOWN);
  });
});

describe('sniff: unknown', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['one byte', Buffer.from([0xff])],
    ['plain text', Buffer.from('hello, world\n')],
    ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')],
    ['a WAV', bytes('RIFF', [36, 0, 0, 0], 'WAVEfmt ', zeros(24))],
  ])('%s', (_name, input) => {
    expect(sniff(input)).toEqual(UNKNOWN);
  });
});

function bytes(...parts: Array<string | number[] | Buffer>): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
}

function zeros(length: number): Buffer {
  return Buffer.alloc(length);
}

function uint32be(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function ftyp(major: string, compatible: string[]): Buffer {
  const box = bytes(uint32be(16 + 4 * compatible.length), 'ftyp', major, zeros(4), ...compatible);
  return bytes(box, uint32be(8), 'mdat');
}

function ebml(docType: string): Buffer {
  const docTypeElement = bytes([0x42, 0x82, 0x80 | docType.length], docType);
  const body = bytes([0x42, 0x86, 0x81, 0x01], docTypeElement, [0x42, 0x87, 0x81, 0x04]);
  return bytes([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length], body, [0x18, 0x53, 0x80, 0x67]);
}

function tinyBmp(): Buffer {
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + 4, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(1, 18);
  header.writeInt32LE(1, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return bytes(header, [0, 0, 255, 0]);
}

function storedZip(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return bytes(local, name, data, end);
}

function ustar(name: string, content: string): Buffer {
  const header = Buffer.alloc(512);
  const field = (value: string, offset: number) => header.write(value, offset, 'latin1');
  field(name, 0);
  field('0000644\0', 100);
  field('0000000\0', 108);
  field('0000000\0', 116);
  field(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  field('00000000000\0', 136);
  field('        ', 148);
  field('0', 156);
  field('ustar\0', 257);
  field('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const body = Buffer.alloc(512);
  body.write(content);
  return bytes(header, body, zeros(1024));
}
