/**
 * Converts a frozen tfjs graph model (NHWC) into an ONNX model (NCHW) for ONNX Runtime's native CPU kernels, from its
 * input to one named node. It knows the ops a MobileNet-style convolutional graph is made of (the CenterNet backbone
 * uses nothing else) and refuses any other by name, so a changed model fails at load, never with wrong numbers.
 *
 * Layout: the NHWC input is transposed once to NCHW; filters become OIHW (depthwise ones grouped convolutions);
 * `SAME` padding is ONNX's SAME_UPPER (TensorFlow pads the extra pixel at the end); Mean over H and W reduces axes 2
 * and 3. Elementwise constants must be scalars (a per-channel constant would need its own layout change).
 */
import type { io } from '@tensorflow/tfjs';
import { type OnnxAttribute, type OnnxNode, type OnnxTensor, TensorType, encodeOnnxModel } from './onnx-model.js';
import { type TfWeight, decodeTfWeights } from './tf-weights.js';

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { s?: string; b?: boolean; list?: { i?: string[]; s?: string[] } }>;
}

export interface TfGraphConversion {
  /** The graph's NHWC float input placeholder; the ONNX model's input is `images`, [N, H, W, C] float32. */
  input: string;
  inputChannels: number;
  /** The node whose NHWC feature map is averaged over H and W into the model's output `features`, [N, C]. */
  output: string;
  /** Channels of the output node (checked by ONNX Runtime when it loads the model). */
  outputChannels: number;
}

export const ONNX_INPUT = 'images';
export const ONNX_OUTPUT = 'features';

export function tfGraphToOnnx(artifacts: io.ModelArtifacts, conversion: TfGraphConversion): Uint8Array {
  const topology = artifacts.modelTopology as { node?: TfNode[] } | undefined;
  if (!topology?.node || !artifacts.weightSpecs || !(artifacts.weightData instanceof ArrayBuffer)) throw new Error('not a tfjs graph model with one weight buffer');
  const weights = decodeTfWeights(artifacts.weightSpecs, artifacts.weightData);
  const byName = new Map(topology.node.map((n) => [n.name, n]));
  const nodes: OnnxNode[] = [];
  const initializers: OnnxTensor[] = [];
  const constant = (name: string, dims: number[], data: Float32Array) => {
    initializers.push({ name, dims, dataType: TensorType.Float, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return name;
  };
  const weight = (name: string): TfWeight => {
    const w = weights.get(name);
    if (!w) throw new Error(`graph constant ${name} has no weight`);
    return w;
  };

  nodes.push({ opType: 'Transpose', input: [ONNX_INPUT], output: [conversion.input], attribute: [ints('perm', [0, 3, 1, 2])] });
  for (const node of inputOrder(byName, conversion.output)) {
    const inputs = (node.input ?? []).map(tensorName);
    switch (node.op) {
      case 'Placeholder':
        if (node.name !== conversion.input) throw new Error(`the graph needs input ${node.name}, not only ${conversion.input}`);
        break;
      case 'Const':
        break;
      case '_FusedConv2D':
      case 'FusedDepthwiseConv2dNative':
        nodes.push(...convolution(node, inputs, weight, constant));
        break;
      case 'Relu6':
        nodes.push({ opType: 'Clip', input: [inputs[0]!, constant(`${node.name}/min`, [], new Float32Array([0])), constant(`${node.name}/max`, [], new Float32Array([6]))], output: [node.name] });
        break;
      case 'Add':
      case 'Mul':
        nodes.push({ opType: node.op, input: inputs.map((i) => (byName.get(i)?.op === 'Const' ? scalar(i, weight(i), constant) : i)), output: [node.name] });
        break;
      case 'Mean': {
        const axes = Array.from(weight(inputs[1]!).data);
        if (axes.join() !== '1,2') throw new Error(`${node.name}: Mean over axes ${axes.join()} (only H and W are known)`);
        nodes.push({ opType: 'ReduceMean', input: [inputs[0]!], output: [node.name], attribute: [ints('axes', [2, 3]), int('keepdims', node.attr?.keep_dims?.b ? 1 : 0)] });
        break;
      }
      default:
        throw new Error(`${node.name}: op ${node.op} has no ONNX conversion`);
    }
  }
  nodes.push({ opType: 'ReduceMean', input: [conversion.output], output: [ONNX_OUTPUT], attribute: [ints('axes', [2, 3]), int('keepdims', 0)] });

  return encodeOnnxModel({
    name: 'converted-tfjs-graph',
    nodes,
    initializers,
    inputs: [{ name: ONNX_INPUT, elemType: TensorType.Float, dims: ['batch', 'height', 'width', conversion.inputChannels] }],
    outputs: [{ name: ONNX_OUTPUT, elemType: TensorType.Float, dims: ['batch', conversion.outputChannels] }],
  });
}

/** The nodes `output` depends on, each after its inputs. */
function inputOrder(byName: Map<string, TfNode>, output: string): TfNode[] {
  const order: TfNode[] = [];
  const seen = new Set<string>();
  const stack: { name: string; expanded: boolean }[] = [{ name: output, expanded: false }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const node = byName.get(item.name);
    if (!node) throw new Error(`the graph has no node ${item.name}`);
    if (item.expanded) {
      order.push(node);
      continue;
    }
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    stack.push({ name: item.name, expanded: true });
    for (const input of node.input ?? []) if (!input.startsWith('^') && !seen.has(tensorName(input))) stack.push({ name: tensorName(input), expanded: false });
  }
  return order;
}

/** `name:0` and `name` are the same tensor for single-output ops. */
function tensorName(input: string): string {
  return input.split(':')[0]!;
}

function convolution(node: TfNode, inputs: string[], weight: (name: string) => TfWeight, constant: (name: string, dims: number[], data: Float32Array) => string): OnnxNode[] {
  const fused = (node.attr?.fused_ops?.list?.s ?? []).map(decode);
  const known = fused.length > 0 && fused[0] === 'BiasAdd' && fused.slice(1).every((op) => op === 'Relu' || op === 'Relu6');
  if (!known || fused.length > 2) throw new Error(`${node.name}: fused ops ${fused.join(', ')} have no ONNX conversion`);
  const dilations = node.attr?.dilations?.list?.i?.map(Number) ?? [1, 1, 1, 1];
  const strides = node.attr?.strides?.list?.i?.map(Number) ?? [1, 1, 1, 1];
  const padding = decode(node.attr?.padding?.s ?? '');
  if (decode(node.attr?.data_format?.s ?? 'TkhXQw==') !== 'NHWC') throw new Error(`${node.name}: only NHWC convolutions are known`);
  if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${node.name}: padding ${padding} has no ONNX conversion`);

  const filter = weight(inputs[1]!);
  const bias = weight(inputs[2]!);
  const [height, width, inChannels, outChannels] = filter.shape as [number, number, number, number];
  const depthwise = node.op === 'FusedDepthwiseConv2dNative';
  if (depthwise && outChannels !== 1) throw new Error(`${node.name}: depthwise multiplier ${outChannels} (only 1 is known)`);
  const dims = depthwise ? [inChannels, 1, height, width] : [outChannels, inChannels, height, width];
  const oihw = depthwise ? hwioToOihw(filter.data as Float32Array, height, width, 1, inChannels) : hwioToOihw(filter.data as Float32Array, height, width, inChannels, outChannels);

  const activation = fused[1];
  const convOutput = activation ? `${node.name}/conv` : node.name;
  const out: OnnxNode[] = [
    {
      opType: 'Conv',
      name: node.name,
      input: [inputs[0]!, constant(inputs[1]!, dims, oihw), constant(inputs[2]!, [bias.data.length], bias.data as Float32Array)],
      output: [convOutput],
      attribute: [
        str('auto_pad', padding === 'SAME' ? 'SAME_UPPER' : 'VALID'),
        ints('strides', strides.slice(1, 3)),
        ints('dilations', dilations.slice(1, 3)),
        ints('kernel_shape', [height, width]),
        int('group', depthwise ? inChannels : 1),
      ],
    },
  ];
  if (activation === 'Relu') out.push({ opType: 'Relu', input: [convOutput], output: [node.name] });
  if (activation === 'Relu6') {
    out.push({ opType: 'Clip', input: [convOutput, constant(`${node.name}/min`, [], new Float32Array([0])), constant(`${node.name}/max`, [], new Float32Array([6]))], output: [node.name] });
  }
  return out;
}

function scalar(name: string, w: TfWeight, constant: (name: string, dims: number[], data: Float32Array) => string): string {
  if (w.shape.length !== 0 || !(w.data instanceof Float32Array)) throw new Error(`elementwise constant ${name} of shape [${w.shape.join(', ')}] (only float scalars are known)`);
  return constant(name, [], w.data);
}

function hwioToOihw(hwio: Float32Array, height: number, width: number, inChannels: number, outChannels: number): Float32Array {
  const out = new Float32Array(hwio.length);
  for (let h = 0; h < height; h++) {
    for (let w = 0; w < width; w++) {
      for (let i = 0; i < inChannels; i++) {
        for (let o = 0; o < outChannels; o++) out[((o * inChannels + i) * height + h) * width + w] = hwio[((h * width + w) * inChannels + i) * outChannels + o]!;
      }
    }
  }
  return out;
}

function decode(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}
const int = (name: string, i: number): OnnxAttribute => ({ name, i, type: 2 });
const ints = (name: string, values: number[]): OnnxAttribute => ({ name, ints: values, type: 7 });
const str = (name: string, s: string): OnnxAttribute => ({ name, s: Buffer.from(s), type: 3 });
