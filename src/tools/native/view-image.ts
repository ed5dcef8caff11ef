// view_image: show the model a local image. The image goes back as the tool's output content.
import { resolve } from 'node:path';
import type { ToolSpec } from '../spec.js';
import { nativeParameters } from './shipped-parameters.js';
import { failure } from '../router.js';
import { loadImagePart } from './image-file.js';

export function viewImageTool(options: { modelAcceptsImages: boolean }): ToolSpec {
  return {
    name: 'view_image',
    description: 'Attach a local image (PNG, JPEG, GIF, WebP) so you can look at it.',
    kind: 'function',
    parameters: nativeParameters('view_image'),
    parallelSafe: true,
    async handle(raw, ctx) {
      if (!options.modelAcceptsImages) return failure('view_image is not allowed because you do not support image inputs');
      const path = resolve(ctx.cwd, (raw as { path: string }).path);
      try {
        return { output: [loadImagePart(path)], success: true };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
