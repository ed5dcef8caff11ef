// Local images become data URLs on the user message (Responses `input_image`); wire adapters
// translate them for Chat and Messages.
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { ContentPart } from '../../protocol/index.js';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export function loadImagePart(path: string, detail?: 'high' | 'original'): Extract<ContentPart, { type: 'input_image' }> {
  const mime = MIME_BY_EXTENSION[extname(path).toLowerCase()];
  if (!mime) {
    throw new Error(`unable to process image at \`${path}\`: unsupported type (use .png, .jpg, .jpeg, .gif or .webp)`);
  }
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    throw new Error(`unable to locate image at \`${path}\`: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  if (!isFile) throw new Error(`image path \`${path}\` is not a file`);
  const data = readFileSync(path).toString('base64');
  return { type: 'input_image', image_url: `data:${mime};base64,${data}`, ...(detail ? { detail } : {}) };
}
