import { Type } from '@sinclair/typebox';
import { MAP_POLYGON_MAX_VERTICES } from '../../core/vql.js';
import { Nullable } from '../../http/schemas.js';

/** Map coordinates lie in [0, 1] (the longer side); a drawn shape may reach well past them, never past this. */
const COORD_LIMIT = 1e9;
export const MAP_PAGE_MAX = 50_000;
export const SELECTION_PAGE_MAX = 10_000;

const Coord = (description: string) => Type.Number({ minimum: -COORD_LIMIT, maximum: COORD_LIMIT, description });
const Cursor = Type.String({ format: 'uuid', description: "The previous page's next_cursor (the last media_id it held)" });

const Bounds = Type.Object(
  { min_x: Type.Number(), min_y: Type.Number(), max_x: Type.Number(), max_y: Type.Number() },
  { description: 'Where the points lie: at index time the layout is scaled so its longer side spans [0, 1]; media attached later may widen it' },
);

export const MapQuery = Type.Object({
  threshold: Type.Integer({ minimum: 0, maximum: 4, default: 0, description: "Cluster level of each point's cluster id, as Explore's threshold (0 finest … 4 coarsest)" }),
  limit: Type.Integer({ minimum: 1, maximum: MAP_PAGE_MAX, default: 10_000, description: 'Points per page. Points come in media-id order, which is random on the map: any first page is an even sample of it (a level of detail)' }),
  cursor: Type.Optional(Cursor),
  min_x: Type.Optional(Coord('Only points inside this rectangle (all four bounds or none; edges included)')),
  min_y: Type.Optional(Coord('See min_x')),
  max_x: Type.Optional(Coord('See min_x')),
  max_y: Type.Optional(Coord('See min_x')),
});

export const MapResponse = Type.Object({
  bounds: Bounds,
  total: Type.Integer({ minimum: 0, description: 'Points on the whole map (rectangle or not)' }),
  sample: Type.Integer({ minimum: 0, description: 'Media UMAP was fitted on at index time; the others were placed from their neighbours' }),
  seconds: Type.Object({ umap: Type.Number(), placement: Type.Number() }, { description: 'What making the map took at index time' }),
  threshold: Type.Integer(),
  clusters: Type.Array(Type.String({ format: 'uuid' }), { description: "The page's distinct cluster ids at the threshold, each listed once" }),
  points: Type.Object(
    {
      media_id: Type.Array(Type.String({ format: 'uuid' })),
      x: Type.Array(Type.Number()),
      y: Type.Array(Type.Number()),
      cluster: Type.Array(Type.Integer({ description: 'Position in clusters; -1 for none' })),
    },
    { description: 'The page as columns: point i is (media_id[i], x[i], y[i], clusters[cluster[i]])' },
  ),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
});

const Point = Type.Array(Coord('x, then y'), { minItems: 2, maxItems: 2 });
export const Polygon = Type.Array(Point, {
  minItems: 3,
  maxItems: MAP_POLYGON_MAX_VERTICES,
  description: 'Vertices [x, y] in order (a lasso); the last joins the first. A point on an edge is inside',
});

export const SelectionBody = Type.Object({
  polygon: Type.Optional(Polygon),
  rect: Type.Optional(Type.Object({ min_x: Coord('Left'), min_y: Coord('Bottom'), max_x: Coord('Right'), max_y: Coord('Top') }, { description: 'A rectangle, edges included: give it or polygon' })),
  limit: Type.Integer({ minimum: 1, maximum: SELECTION_PAGE_MAX, default: 1000, description: 'Media ids per page' }),
  cursor: Type.Optional(Cursor),
});

export const SelectionResponse = Type.Object({
  count: Type.Integer({ minimum: 0, description: 'Media inside the shape, on every page together' }),
  media_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'A page of them in media-id order' }),
  next_cursor: Nullable(Type.String()),
  vql: Type.String({ description: "The same selection as an Explore vql filter: pass it to Explore, tag-by-query, an export's selection or a saved view" }),
});
