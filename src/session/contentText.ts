import type { ContentBlockOrUnknown } from '../protocol';

/** A content block as the text the transcript shows (images and audio as placeholders). */
export function contentText(block: ContentBlockOrUnknown): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default:
      return '';
  }
}
