/**
 * The part of ONNX's ModelProto (onnx/onnx.proto, field numbers as published) that a converted feed-forward graph
 * needs, encoded with protobufjs: nodes with int/ints/string attributes, raw-data initializers, typed inputs and
 * outputs. The schema is written here as JSON rather than loaded from onnx.proto, which no npm package ships current.
 */
import protobuf from 'protobufjs';

/** TensorProto.DataType values. */
export const TensorType = { Float: 1, Uint8: 2, Int32: 6, Int64: 7 } as const;
export type TensorType = (typeof TensorType)[keyof typeof TensorType];

export interface OnnxAttribute {
  name: string;
  i?: number;
  ints?: number[];
  s?: Uint8Array;
  /** AttributeProto.AttributeType: INT 2, STRING 3, INTS 7. */
  type: 2 | 3 | 7;
}

export interface OnnxNode {
  opType: string;
  name?: string;
  input: string[];
  output: string[];
  attribute?: OnnxAttribute[];
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: TensorType;
  rawData: Uint8Array;
}

/** A dimension is a fixed size or a symbolic name (a free size). */
export type OnnxDim = number | string;

export interface OnnxValue {
  name: string;
  elemType: TensorType;
  dims: OnnxDim[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });
const SCHEMA = {
  nested: {
    onnx: {
      nested: {
        ModelProto: { fields: { irVersion: { type: 'int64', id: 1 }, producerName: { type: 'string', id: 2 }, graph: { type: 'GraphProto', id: 7 }, opsetImport: repeated('OperatorSetIdProto', 8) } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: { fields: { node: repeated('NodeProto', 1), name: { type: 'string', id: 2 }, initializer: repeated('TensorProto', 5), input: repeated('ValueInfoProto', 11), output: repeated('ValueInfoProto', 12) } },
        NodeProto: { fields: { input: repeated('string', 1), output: repeated('string', 2), name: { type: 'string', id: 3 }, opType: { type: 'string', id: 4 }, attribute: repeated('AttributeProto', 5) } },
        AttributeProto: { fields: { name: { type: 'string', id: 1 }, i: { type: 'int64', id: 3 }, s: { type: 'bytes', id: 4 }, ints: repeated('int64', 8), type: { type: 'int32', id: 20 } } },
        TensorProto: { fields: { dims: repeated('int64', 1), dataType: { type: 'int32', id: 2 }, name: { type: 'string', id: 8 }, rawData: { type: 'bytes', id: 9 } } },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensorType: { type: 'TensorTypeProto', id: 1 } } },
        TensorTypeProto: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: repeated('Dimension', 1) } },
        Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
      },
    },
  },
};

/** Opset 13: ReduceMean still takes its axes as an attribute, Clip its bounds as inputs. */
export const OPSET = 13;
const IR_VERSION = 7;

let modelType: protobuf.Type | undefined;

/** The graph as a serialized ONNX model, ready for an InferenceSession. */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  modelType ??= protobuf.Root.fromJSON(SCHEMA).lookupType('onnx.ModelProto');
  const value = (v: OnnxValue) => ({
    name: v.name,
    type: { tensorType: { elemType: v.elemType, shape: { dim: v.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  });
  const model = {
    irVersion: IR_VERSION,
    producerName: 'loupe',
    opsetImport: [{ domain: '', version: OPSET }],
    graph: { name: graph.name, node: graph.nodes, initializer: graph.initializers, input: graph.inputs.map(value), output: graph.outputs.map(value) },
  };
  const problem = modelType.verify(model);
  if (problem) throw new Error(`invalid ONNX model: ${problem}`);
  return modelType.encode(modelType.fromObject(model)).finish();
}
