import * as v from 'valibot';

export const NewsItemSchema = v.object({
  id: v.string(),
  title: v.string(),
  body: v.string(),
  publishedAt: v.string(),
  read: v.boolean(),
});
export type NewsItem = v.InferOutput<typeof NewsItemSchema>;
export const NewsListSchema = v.array(NewsItemSchema);
