/** COCO-80 class names in the order of CenterNet's class channel (index 0 = person), as @vladmandic/human lists them. */
export const COCO_LABELS: readonly string[] = [
  'person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat', 'traffic light',
  'fire hydrant', 'stop sign', 'parking meter', 'bench', 'bird', 'cat', 'dog', 'horse', 'sheep', 'cow',
  'elephant', 'bear', 'zebra', 'giraffe', 'backpack', 'umbrella', 'handbag', 'tie', 'suitcase', 'frisbee',
  'skis', 'snowboard', 'sports ball', 'kite', 'baseball bat', 'baseball glove', 'skateboard', 'surfboard', 'tennis racket', 'bottle',
  'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl', 'banana', 'apple', 'sandwich', 'orange',
  'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair', 'couch', 'potted plant', 'bed',
  'dining table', 'toilet', 'tv', 'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'microwave', 'oven',
  'toaster', 'sink', 'refrigerator', 'book', 'clock', 'vase', 'scissors', 'teddy bear', 'hair drier', 'toothbrush',
];

/** Plural forms that are not the label plus "s" (labels already plural or mass nouns stay as they are). */
const PLURALS: Record<string, string> = {
  person: 'people', bus: 'buses', bench: 'benches', sheep: 'sheep', skis: 'pairs of skis', 'wine glass': 'wine glasses',
  knife: 'knives', sandwich: 'sandwiches', 'potted plant': 'potted plants', 'hair drier': 'hair driers',
  toothbrush: 'toothbrushes', 'sports ball': 'sports balls', couch: 'couches', scissors: 'pairs of scissors',
  broccoli: 'heads of broccoli', 'hot dog': 'hot dogs', mouse: 'mice', 'cell phone': 'cell phones', glass: 'glasses',
};

export function pluralLabel(label: string, count: number): string {
  if (count === 1) return label;
  return PLURALS[label] ?? `${label}s`;
}
