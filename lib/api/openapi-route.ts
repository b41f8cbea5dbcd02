import type { z } from 'zod';

// One route of the OpenAPI description (lib/api/openapi.ts), on its own so the files that list
// routes (openapi-mappings.ts, ...) import it without importing the whole description.

export type Method = 'get' | 'post';
export type Access = 'public' | 'reader' | 'operator';

export interface Route {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Path parameters beyond `broker` (always the configured ids). */
  params?: Record<string, z.ZodType>;
  /** 200 JSON body; or another answer of the route. */
  ok?: z.ZodType;
  other?: Record<string, { description: string; content?: Record<string, unknown> }>;
  /** Error statuses besides the defaults of its access level. */
  errors?: number[];
  description?: string;
}
