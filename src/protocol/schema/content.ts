import * as z from 'zod/mini';
import { int64, meta } from './common';
import { lenientArray, lenientNullable, openDiscriminatedUnion } from './lenient';

// Content blocks (modeled on MCP's): what prompts and message chunks are made of.

export const RoleSchema = z.enum(['assistant', 'user']);
export type Role = z.infer<typeof RoleSchema>;

export const AnnotationsSchema = z.object({
  audience: lenientNullable(lenientArray(RoleSchema)),
  lastModified: lenientNullable(z.string()),
  priority: lenientNullable(z.number()),
  ...meta,
});
export type Annotations = z.infer<typeof AnnotationsSchema>;

const annotated = {
  annotations: lenientNullable(AnnotationsSchema),
  ...meta,
};

export const TextContentSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  ...annotated,
});
export type TextContent = z.infer<typeof TextContentSchema>;

export const ImageContentSchema = z.object({
  type: z.literal('image'),
  /** base64 */
  data: z.string(),
  mimeType: z.string(),
  uri: lenientNullable(z.string()),
  ...annotated,
});
export type ImageContent = z.infer<typeof ImageContentSchema>;

export const AudioContentSchema = z.object({
  type: z.literal('audio'),
  /** base64 */
  data: z.string(),
  mimeType: z.string(),
  ...annotated,
});
export type AudioContent = z.infer<typeof AudioContentSchema>;

export const ResourceLinkSchema = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: lenientNullable(z.string()),
  description: lenientNullable(z.string()),
  mimeType: lenientNullable(z.string()),
  size: lenientNullable(int64),
  ...annotated,
});
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

export const TextResourceContentsSchema = z.object({
  uri: z.string(),
  text: z.string(),
  mimeType: lenientNullable(z.string()),
  ...meta,
});
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

export const BlobResourceContentsSchema = z.object({
  uri: z.string(),
  /** base64 */
  blob: z.string(),
  mimeType: lenientNullable(z.string()),
  ...meta,
});
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** Untagged on the wire: the variants differ by having `text` or `blob`. */
export const EmbeddedResourceResourceSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);
export type EmbeddedResourceResource = z.infer<typeof EmbeddedResourceResourceSchema>;

export const EmbeddedResourceSchema = z.object({
  type: z.literal('resource'),
  resource: EmbeddedResourceResourceSchema,
  ...annotated,
});
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

const contentBlockVariants = [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
] as const;

/** Exactly the v1 block types: what prompts are built from, so what we send stays spec-valid. */
export const ContentBlockSchema = z.discriminatedUnion('type', contentBlockVariants);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/**
 * For blocks we only display (message chunks): a block type from a later protocol version
 * reads as `{ type: 'unknown', kind }`, so the UI can show a placeholder for that one block
 * instead of the whole notification being rejected.
 */
export const ContentBlockOrUnknownSchema = openDiscriminatedUnion('type', contentBlockVariants);
export type ContentBlockOrUnknown = z.infer<typeof ContentBlockOrUnknownSchema>;
export type UnknownContentBlock = Extract<ContentBlockOrUnknown, { type: 'unknown' }>;
