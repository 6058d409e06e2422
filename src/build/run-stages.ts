/** A stage's time, as BuildSummary.stages lists it (a stage run twice is listed twice). */
export interface StageTime {
  name: string;
  ms: number;
}

/** What the runner gives a stage besides the state the stages before it left. */
export interface StageTools {
  /**
   * Only `ownMs` of this stage's time is its own; the rest is counted in the later stage named
   * `rest`. The render stage writes each page as it renders it, and the writing is the write
   * stage's.
   */
  splitTime(ownMs: number, rest: string): void;
  /** `undo` runs when this stage or a later one fails: the new output folder is removed. */
  onFailure(undo: () => void): void;
}

/**
 * A step of the build: its name, and what it makes of the state the stages before it left.
 * A stage with problems throws them (a StorefrontError), and the build stops there.
 */
export interface Stage<In, Out> {
  /** Its name in BuildSummary.stages: `storefront build` prints it with its time. */
  readonly name: string;
  run(input: In, tools: StageTools): Out | Promise<Out>;
}

interface Entry {
  stage: Stage<unknown, unknown>;
  when?: (state: unknown) => boolean;
}

/**
 * The build's stages in the order they run, each given what the one before it returned.
 * `stage()` adds one (typed: each takes what the one before it makes); `run()` runs them top
 * to bottom, times each, and stops at the first that throws, after undoing what the stages
 * before it asked to be undone.
 */
export class StageList<S> {
  private constructor(
    private readonly start: unknown,
    private readonly entries: readonly Entry[],
  ) {}

  /** `start`: the state the first stage is given. */
  static from<S>(start: S): StageList<S> {
    return new StageList<S>(start, []);
  }

  /** Adds a stage; with `when`, one that runs only when that says so (the others pass the state on). */
  stage<T>(stage: Stage<S, T>): StageList<T>;
  stage(stage: Stage<S, S>, when: (state: S) => boolean): StageList<S>;
  stage<T>(stage: Stage<S, T>, when?: (state: S) => boolean): StageList<T> {
    const entry: Entry = { stage: stage as Stage<unknown, unknown> };
    if (when) entry.when = when as (state: unknown) => boolean;
    return new StageList<T>(this.start, [...this.entries, entry]);
  }

  /** The state the last stage left, and each stage's time. */
  async run(): Promise<{ state: S; times: StageTime[] }> {
    const times: StageTime[] = [];
    const undos: (() => void)[] = [];
    // Time a stage handed on (splitTime), by the name of the later stage it belongs to.
    const handedOn = new Map<string, number>();
    let state = this.start;
    try {
      for (const { stage, when } of this.entries) {
        if (when && !when(state)) continue;
        let split: { ownMs: number; rest: string } | undefined;
        const tools: StageTools = {
          splitTime: (ownMs, rest) => {
            split = { ownMs, rest };
          },
          onFailure: (undo) => undos.push(undo),
        };
        const started = performance.now();
        state = await stage.run(state, tools);
        const ms = performance.now() - started;
        times.push({ name: stage.name, ms: (split?.ownMs ?? ms) + (handedOn.get(stage.name) ?? 0) });
        handedOn.delete(stage.name);
        if (split) handedOn.set(split.rest, (handedOn.get(split.rest) ?? 0) + ms - split.ownMs);
      }
    } catch (err) {
      for (const undo of undos.reverse()) undo();
      throw err;
    }
    return { state: state as S, times };
  }
}
