import * as v from 'valibot';
import { IdSchema } from './common.ts';

export const NewsItemSchema = v.object({ id: IdSchema, title: v.string(), body: v.string(), publishedAt: v.string(), read: v.boolean() });
export type NewsItem = v.InferOutput<typeof NewsItemSchema>;
export const NewsListSchema = v.array(NewsItemSchema);
