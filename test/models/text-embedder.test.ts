import { beforeAll, describe, expect, it } from 'vitest';
import { cosine, loadWordVectorEmbedder, tokenize, type TextEmbedder } from '../../src/adapters/models/text-embedder.js';

describe('tokenize', () => {
  it('splits file names on separators and digits and drops extensions', () => {
    expect(tokenize('golden_retriever-puppy_01.jpg')).toEqual(['golden', 'retriever', 'puppy']);
    expect(tokenize('red car on street.png')).toEqual(['red', 'car', 'street']);
    expect(tokenize('trips/2023/beach.sunset.WEBP')).toEqual(['trips', 'beach', 'sunset']);
    expect(tokenize('clip.mp4 photo.heic shot.jpeg')).toEqual(['clip', 'shot']);
  });

  it('splits camelCase and acronyms', () => {
    expect(tokenize('myDogAtTheBeach.png')).toEqual(['my', 'dog', 'beach']);
    expect(tokenize('HTTPServerLogo')).toEqual(['http', 'server', 'logo']);
  });

  it('drops camera prefixes, numbers, stop words and one-letter tokens', () => {
    expect(tokenize('IMG_2041.JPG')).toEqual([]);
    expect(tokenize('DSC01234 x 4k.jpeg')).toEqual([]);
    expect(tokenize('A dog on the grass, with an image of a ball')).toEqual(['dog', 'grass', 'ball']);
    expect(tokenize('person, horse')).toEqual(['person', 'horse']);
  });
});

describe('cosine', () => {
  it('is 1 for parallel, 0 for orthogonal or zero vectors', () => {
    expect(cosine(Float32Array.of(1, 2), Float32Array.of(2, 4))).toBeCloseTo(1, 6);
    expect(cosine(Float32Array.of(1, 0), Float32Array.of(0, 3))).toBe(0);
    expect(cosine(Float32Array.of(0, 0), Float32Array.of(1, 1))).toBe(0);
    expect(() => cosine(Float32Array.of(1), Float32Array.of(1, 2))).toThrow(RangeError);
  });
});

describe('word-vector text embedder', () => {
  let embedder: TextEmbedder;
  const sim = (a: string, b: string) => cosine(embedder.embed(a)!, embedder.embed(b)!);

  beforeAll(async () => {
    embedder = await loadWordVectorEmbedder();
  }, 60_000);

  it('loads once and describes itself', async () => {
    expect(await loadWordVectorEmbedder()).toBe(embedder);
    expect(embedder.name).toBe('wink-sg-100d');
    expect(embedder.dimensions).toBe(100);
  });

  it('returns unit-norm vectors', () => {
    for (const text of ['dog', 'a puppy playing', 'golden_retriever-puppy_01.jpg', 'person, horse']) {
      const v = embedder.embed(text)!;
      expect(v).toHaveLength(100);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });

  it('returns null when no word is known', () => {
    expect(embedder.embed('IMG_2041.JPG')).toBeNull();
    expect(embedder.embed('')).toBeNull();
    expect(embedder.embed('qzxvbnmlk wrtpzzq')).toBeNull();
  });

  it('ignores unknown words next to known ones', () => {
    expect(sim('dog qzxvbnmlk', 'dog')).toBeCloseTo(1, 6);
  });

  it('puts related words closer than unrelated ones', () => {
    expect(sim('dog', 'puppy')).toBeGreaterThan(sim('dog', 'automobile'));
    expect(sim('car', 'automobile')).toBeGreaterThan(sim('car', 'horse'));
    expect(sim('horse', 'horses')).toBeGreaterThan(0.8);
  });

  it('matches queries against file names', () => {
    expect(sim('car', 'red_car_on_street.png')).toBeGreaterThan(sim('car', 'golden_retriever_puppy.jpg'));
    expect(sim('dog', 'golden_retriever_puppy.jpg')).toBeGreaterThan(sim('dog', 'red_car_on_street.png'));
    expect(sim('a puppy playing', 'golden_retriever-puppy_01.jpg')).toBeGreaterThan(0.6);
  });
});
