/**
 * The little of the browser's DOM that the browser tests read inside `page.evaluate` (the tests
 * compile without the DOM library, so a function run in the page says what it uses through
 * these types: `const w = globalThis as unknown as PageWindow`).
 */
export interface PageRect {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly height: number;
}

export interface PageNode {
  readonly textContent: string | null;
  readonly offsetParent: unknown;
  getBoundingClientRect(): PageRect;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): Iterable<PageNode>;
}

export interface PageWindow {
  readonly document: {
    readonly documentElement: PageNode & { readonly scrollWidth: number };
    querySelector(selector: string): PageNode | null;
    querySelectorAll(selector: string): Iterable<PageNode>;
    createTreeWalker(root: PageNode, show: number): { nextNode(): PageNode | null };
    createRange(): {
      setStart(node: PageNode, offset: number): void;
      setEnd(node: PageNode, offset: number): void;
      getClientRects(): Iterable<PageRect>;
    };
  };
  readonly NodeFilter: { readonly SHOW_TEXT: number };
  getComputedStyle(node: PageNode): { readonly display: string; readonly opacity: string };
}
