import { ChangeEvent } from '../../shared/api/events.js';

/** One Server-Sent Events frame (comment lines left out). */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

/** Frames of a `text/event-stream` response as they arrive, and waits for the one a test wants. */
export interface SseReader {
  frames: SseFrame[];
  readonly ended: boolean;
  /** Waits until a frame (from index `from`) passes `test`; `nudge` runs while waiting (a hub's poll). */
  next(test: (f: SseFrame) => boolean, from?: number): Promise<SseFrame>;
  /** The next change event that passes `test`. */
  change(test: (e: ChangeEvent) => boolean): Promise<ChangeEvent>;
  untilEnded(): Promise<void>;
  close(): void;
}

/** Reads the body of an event stream response; `nudge` runs while a `next` waits (e.g. the hub's `poll`). */
export function readSse(res: Response, controller: AbortController, nudge?: () => Promise<unknown>): SseReader {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const frames: SseFrame[] = [];
  const waiting: (() => void)[] = [];
  const wake = () => waiting.splice(0).forEach((w) => w());
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = parseFrame(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          if (frame) frames.push(frame);
        }
        wake();
      }
    } catch {
      // aborted by the test, or the server went away
    }
    ended = true;
    wake();
  })();
  const next = async (test: (f: SseFrame) => boolean, from = 0): Promise<SseFrame> => {
    for (;;) {
      const found = frames.slice(from).find(test);
      if (found) return found;
      if (ended) throw new Error(`the stream ended; frames: ${JSON.stringify(frames)}`);
      const tick = new Promise<void>((r) => setTimeout(r, nudge ? 20 : 100));
      await Promise.race([new Promise<void>((r) => waiting.push(r)), nudge ? nudge().then(() => tick) : tick]);
    }
  };
  return {
    frames,
    get ended() {
      return ended;
    },
    next,
    async change(test) {
      const f = await next((f) => f.event === 'change' && test(ChangeEvent.parse(JSON.parse(f.data))));
      return ChangeEvent.parse(JSON.parse(f.data));
    },
    async untilEnded() {
      while (!ended) await new Promise<void>((r) => waiting.push(r));
    },
    close: () => controller.abort(),
  };
}

function parseFrame(block: string): SseFrame | null {
  const frame: SseFrame = { event: 'message', data: '' };
  let data = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || !line.includes(':')) continue;
    const at = line.indexOf(':');
    const field = line.slice(0, at);
    const value = line.slice(at + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') {
      frame.data += (data ? '\n' : '') + value;
      data = true;
    }
  }
  return data ? frame : null;
}
