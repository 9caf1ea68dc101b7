import type { io } from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { ONNX_INPUT, ONNX_OUTPUT, tfGraphToOnnx } from '../../src/adapters/models/onnx/tf-graph-to-onnx.js';
import { decodeTfWeights } from '../../src/adapters/models/onnx/tf-weights.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const list = (...i: number[]) => ({ list: { i: i.map(String) } });

/** A tfjs graph: input [1, H, W, 2] → 1×1 conv to 3 channels (+bias, Relu6) → × 0.5 → output. */
function tinyGraph(extra: { op?: string; scalarShape?: number[] } = {}): io.ModelArtifacts {
  const weights: { spec: io.WeightsManifestEntry; values: number[] }[] = [
    { spec: { name: 'w', shape: [1, 1, 2, 3], dtype: 'float32' }, values: [1, 2, 3, -1, 0.5, 4] },
    { spec: { name: 'b', shape: [3], dtype: 'float32' }, values: [0.25, 0, -8] },
    { spec: { name: 'half', shape: extra.scalarShape ?? [], dtype: 'float32' }, values: (extra.scalarShape ?? []).length ? [0.5, 0.5, 0.5] : [0.5] },
  ];
  const node = [
    { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' } } },
    { name: 'w', op: 'Const' },
    { name: 'b', op: 'Const' },
    { name: 'half', op: 'Const' },
    {
      name: 'conv',
      op: extra.op ?? '_FusedConv2D',
      input: ['x', 'w', 'b'],
      attr: { padding: { s: b64('SAME') }, strides: list(1, 1, 1, 1), dilations: list(1, 1, 1, 1), data_format: { s: b64('NHWC') }, fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu6')] } } },
    },
    { name: 'out', op: 'Mul', input: ['conv', 'half'] },
  ];
  const data = new Float32Array(weights.flatMap((w) => w.values));
  return { modelTopology: { node }, weightSpecs: weights.map((w) => w.spec), weightData: data.buffer };
}

describe('tfjs graph to ONNX', () => {
  it('converts a fused convolution with its activation and a scalar product, NHWC in, pooled channels out', async () => {
    const model = tfGraphToOnnx(tinyGraph(), { input: 'x', inputChannels: 2, output: 'out', outputChannels: 3 });
    const session = await ort.InferenceSession.create(model);
    try {
      // Two pixels: (1, 2) and (3, -4).
      const out = await session.run({ [ONNX_INPUT]: new ort.Tensor('float32', new Float32Array([1, 2, 3, -4]), [1, 1, 2, 2]) });
      const conv = (a: number, b: number) => [a * 1 + b * -1 + 0.25, a * 2 + b * 0.5 + 0, a * 3 + b * 4 - 8].map((v) => Math.min(6, Math.max(0, v)) * 0.5);
      const [p, q] = [conv(1, 2), conv(3, -4)];
      expect(out[ONNX_OUTPUT]!.dims).toEqual([1, 3]);
      expect(Array.from(out[ONNX_OUTPUT]!.data as Float32Array)).toEqual(p.map((v, i) => (v + q[i]!) / 2));
    } finally {
      await session.release();
    }
  });

  it('refuses what it has no conversion for, naming it', () => {
    expect(() => tfGraphToOnnx(tinyGraph({ op: 'Conv3D' }), { input: 'x', inputChannels: 2, output: 'out', outputChannels: 3 })).toThrow('conv: op Conv3D has no ONNX conversion');
    expect(() => tfGraphToOnnx(tinyGraph({ scalarShape: [3] }), { input: 'x', inputChannels: 2, output: 'out', outputChannels: 3 })).toThrow('elementwise constant half of shape [3]');
    expect(() => tfGraphToOnnx(tinyGraph(), { input: 'x', inputChannels: 2, output: 'nowhere', outputChannels: 3 })).toThrow('the graph has no node nowhere');
    expect(() => tfGraphToOnnx(tinyGraph(), { input: 'y', inputChannels: 2, output: 'out', outputChannels: 3 })).toThrow('the graph needs input x');
  });
});

describe('tfjs weight decoding', () => {
  it('turns float16 into float32 bit for bit, subnormals, infinities and NaN included', () => {
    const halves = new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x3555]);
    const [w] = decodeTfWeights([{ name: 'h', shape: [halves.length], dtype: 'float32', quantization: { dtype: 'float16' } }], halves.buffer).values();
    const values = Array.from(w!.data);
    expect(values.slice(0, 5)).toEqual([1, -2, 65504, 2 ** -24, 1023 * 2 ** -24]);
    expect(Object.is(values[5], -0)).toBe(true);
    expect(values.slice(6, 8)).toEqual([Infinity, -Infinity]);
    expect(values[8]).toBeNaN();
    expect(values[9]).toBe(0.333251953125);
  });

  it('applies affine uint8 quantization and checks the byte count', () => {
    const bytes = new Uint8Array([0, 10, 255]);
    const spec: io.WeightsManifestEntry = { name: 'q', shape: [3], dtype: 'float32', quantization: { dtype: 'uint8', scale: 0.5, min: -1 } };
    expect(Array.from(decodeTfWeights([spec], bytes.buffer).get('q')!.data)).toEqual([-1, 4, 126.5]);
    expect(() => decodeTfWeights([spec], new Uint8Array(4).buffer)).toThrow('weights are 4 bytes, the manifest says 3');
  });
});
