// The highlighter is loaded in the background (highlight.js is not needed for the first frame);
// code rendered before it arrives is shown unhighlighted.
import type { Line } from '../text/styled.js';

type Highlight = (code: string, language: string) => Line[] | undefined;

let loaded: Highlight | undefined;
let loading: Promise<void> | undefined;

export function loadHighlighter(): Promise<void> {
  loading ??= import('./highlight.js').then(
    (module) => {
      loaded = module.highlight;
    },
    () => {
      // Without highlighting code still shows, plain.
    },
  );
  return loading;
}

export function highlightIfLoaded(code: string, language: string): Line[] | undefined {
  return loaded?.(code, language);
}
