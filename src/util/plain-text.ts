import type * as z from 'zod';

/**
 * Text that cannot disguise itself. Invisible characters can make a value read differently from
 * what it is: U+202E RIGHT-TO-LEFT OVERRIDE turns "Example Ltd" on the page into something else
 * than the name registered, a zero-width space makes two slugs that look alike differ, and an
 * ESC or a carriage return in a line printed to a terminal can clear the screen or overwrite
 * what came before. Two rules, after UTS #39 (Unicode security mechanisms: format and default
 * ignorable characters are not allowed in identifiers), UTS #55 and the Trojan Source advisory
 * (CVE-2021-42574: embeddings and overrides reorder what follows them), and UAX #9 (isolates
 * rather than embeddings; on the web, markup rather than controls):
 *
 * - `identity`: names, addresses, numbers, slugs and paths (the trader, the brand name, a review's
 *   author and platform, the catalogue's names and slugs, page paths, redirects). Every control
 *   character (C0, DEL, C1), every invisible format character (Unicode category Cf: marks,
 *   embeddings, overrides, isolates, zero-width characters, the soft hyphen, U+FEFF...), every
 *   other default-ignorable character (variation selectors, Hangul fillers) and the line and
 *   paragraph separators are refused: such a value is exactly the characters it shows.
 * - `prose`: copy, headings, FAQ answers, review texts. Right-to-left writing keeps what it
 *   needs: the marks U+200E, U+200F and U+061C, isolates U+2066–U+2068 each closed by U+2069 on
 *   the same line, the joiners U+200C and U+200D, the soft hyphen, zero-width space and word
 *   joiner, variation selectors. Refused: the embeddings and overrides U+202A–U+202E (they reorder
 *   everything after them up to the end of the paragraph), an isolate left open or a U+2069 that
 *   closes none, the deprecated format characters U+206A–U+206F (one shows digits as other digits),
 *   U+FEFF inside text, the interlinear annotation characters U+FFF9–U+FFFB, the noncharacters,
 *   and every control character but tab and line feed (YAML reads every line break as a line feed).
 *
 * Prose is checked as a visitor gets it (markdown.ts, cms/sanitize.ts): after Markdown and
 * character references are decoded, so `&#x202E;` counts as the character it names.
 *
 * `escapeForTerminal` is the other half: whatever the CLI prints that came from content or from a
 * remote answer shows such characters as escapes (`\x1b`, `\r`, `\u202e`), never as themselves.
 */

export type TextRule = 'identity' | 'prose';

const NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x09: 'CHARACTER TABULATION',
  0x0a: 'LINE FEED',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0x9d: 'OPERATING SYSTEM COMMAND',
  0xad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
};

/** `U+202E RIGHT-TO-LEFT OVERRIDE`; a character without a name here is described by its kind. */
export function describeCodePoint(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[codePoint];
  if (name) return `${hex} ${name}`;
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0f) return `${hex} VARIATION SELECTOR-${codePoint - 0xfe00 + 1}`;
  if (codePoint >= 0xe0100 && codePoint <= 0xe01ef) return `${hex} VARIATION SELECTOR-${codePoint - 0xe0100 + 17}`;
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return `${hex}, an invisible tag character`;
  const char = String.fromCodePoint(codePoint);
  if (/\p{Cc}/u.test(char)) return `${hex}, a control character`;
  if (/\p{Cs}/u.test(char)) return `${hex}, half of a character (a lone surrogate)`;
  if (/\p{Noncharacter_Code_Point}/u.test(char)) return `${hex}, a noncharacter`;
  return `${hex}, an invisible character`;
}

/** Refused in names, addresses and paths. */
const IDENTITY_REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;
/**
 * Refused in prose: controls but tab and line feed (YAML turns every line break into a line feed,
 * so a CR can only be typed as an escape); embeddings and overrides; deprecated and annotation
 * format characters; U+FEFF; the noncharacters (U+FFFE, U+FFFF and the others: no text holds them,
 * and XML cannot carry U+FFFE or U+FFFF, so one in a title would make the feed malformed).
 */
const PROSE_REFUSED = new RegExp(
  // One character class, in two parts.
  String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u206a-\u206f\ufeff\ufff9-\ufffb` +
    String.raw`\p{Cs}\p{Noncharacter_Code_Point}]`,
  'u',
);
const OPENS_ISOLATE = new Set([0x2066, 0x2067, 0x2068]);
const CLOSES_ISOLATE = 0x2069;
const ISOLATES = /[\u2066-\u2069]/;
const LINE_BREAK = new Set([0x0a, 0x0d, 0x85, 0x2028, 0x2029]);

export interface Disguise {
  codePoint: number;
  /** Where it is, counted in characters (code points) from 1. */
  position: number;
  /** Why it is refused, as the end of a sentence starting "contains U+202E ... (character 9)". */
  why: string;
  /** How many other refused characters the value holds. */
  others: number;
}

/** The first character of `value` the rule refuses, or undefined when the value is plain. */
export function findDisguise(value: string, rule: TextRule): Disguise | undefined {
  const refused = rule === 'identity' ? IDENTITY_REFUSED : PROSE_REFUSED;
  // Almost every text is plain: one pass of the regular expression over the whole of it (every
  // post body is checked) rather than one call a character.
  if (!refused.test(value) && (rule === 'identity' || !ISOLATES.test(value))) return undefined;
  const found: Omit<Disguise, 'others'>[] = [];
  const openIsolates: number[] = [];
  let position = 0;
  const closeLine = () => {
    for (const at of openIsolates) found.push({ codePoint: 0, position: at, why: 'isolate' });
    openIsolates.length = 0;
  };
  for (const char of value) {
    position += 1;
    const codePoint = char.codePointAt(0)!;
    if (refused.test(char)) {
      found.push({ codePoint, position, why: 'refused' });
      continue;
    }
    if (rule !== 'prose') continue;
    if (LINE_BREAK.has(codePoint)) closeLine();
    else if (OPENS_ISOLATE.has(codePoint)) openIsolates.push(position);
    else if (codePoint === CLOSES_ISOLATE) {
      if (openIsolates.length) openIsolates.pop();
      else found.push({ codePoint, position, why: 'unopened' });
    }
  }
  closeLine();
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.position - b.position);
  const first = found[0]!;
  // An isolate left open: the character is the one at its position.
  const codePoint = first.why === 'isolate' ? [...value][first.position - 1]!.codePointAt(0)! : first.codePoint;
  return { codePoint, position: first.position, why: explain(codePoint, first.why, rule), others: found.length - 1 };
}

function explain(codePoint: number, why: string, rule: TextRule): string {
  if (why === 'isolate')
    return (
      'an isolate left open (no U+2069 POP DIRECTIONAL ISOLATE closes it on the same line), ' +
      'so it reorders the text after it'
    );
  if (why === 'unopened') return 'which closes no isolate opened before it on the same line';
  if (codePoint >= 0x202a && codePoint <= 0x202e)
    return 'a text-direction control that reorders the text after it, so what is shown differs from what is written';
  if (/\p{Cc}/u.test(String.fromCodePoint(codePoint)))
    return 'a control character, which a page does not show and a terminal obeys';
  if (/\p{Noncharacter_Code_Point}/u.test(String.fromCodePoint(codePoint)))
    return 'which is no character of any text (XML cannot carry U+FFFE or U+FFFF)';
  return rule === 'identity'
    ? 'an invisible character: a name, an address, a slug or a path must be exactly the characters it shows'
    : 'an invisible character that changes how the text is shown';
}

/** The problem's message (without a final full stop) and hint for a value the rule refuses. */
export function disguiseProblem(disguise: Disguise, rule: TextRule): { message: string; hint: string } {
  const more =
    disguise.others > 0 ? ` (and ${disguise.others} more such character${disguise.others > 1 ? 's' : ''})` : '';
  return {
    message:
      `contains ${describeCodePoint(disguise.codePoint)} at character ${disguise.position}, ` +
      `${disguise.why}${more}`,
    hint:
      rule === 'identity'
        ? 'Retype the value without invisible or text-direction characters (copy-pasted text often carries them): ' +
          'names, addresses, numbers, slugs and paths may hold none.'
        : 'Remove it. Right-to-left text may use the marks U+200F and U+200E, ' +
          'or wrap a phrase in U+2067 (or U+2066, U+2068) … U+2069 on one line; never U+202A–U+202E.',
  };
}

/**
 * The one zod refinement of both rules: `z.string().superRefine(plainText('identity'))`. It
 * aborts the checks after it, so a path's pattern does not report the same character again;
 * the hint rides in the issue's params (parse-with-schema.ts shows it).
 */
export function plainText(rule: TextRule): (value: string, ctx: z.RefinementCtx<string>) => void {
  return (value, ctx) => {
    const disguise = findDisguise(value, rule);
    if (!disguise) return;
    const { message, hint } = disguiseProblem(disguise, rule);
    ctx.addIssue({ code: 'custom', message, params: { hint, codePoint: disguise.codePoint }, continue: false });
  };
}

/**
 * Refused in what goes to a terminal: every control character (ESC, CR, BEL, C1's CSI...), the
 * text-direction and other invisible format characters, the line and paragraph separators. The
 * joiners U+200C and U+200D stay (scripts and emoji need them; they move nothing).
 */
const TERMINAL_UNSAFE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
/* biome-ignore lint/suspicious/noMisleadingCharacterClass: the joiners are named alone, in a
   lookahead, to be let through */
const TERMINAL_UNSAFE_KEEP_LF = /(?![\u200c\u200d\n])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
const SHORT: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeOne(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  const codePoint = char.codePointAt(0)!;
  if (codePoint <= 0xff) return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  if (codePoint <= 0xffff) return `\\u${codePoint.toString(16).padStart(4, '0')}`;
  return `\\u{${codePoint.toString(16)}}`;
}

/**
 * Text for a terminal: controls and invisible format characters shown as escapes (`\x1b`, `\r`,
 * `\u202e`), so that text from content or from a server can neither move the cursor, clear the
 * screen, set the window title, add a hyperlink, overwrite a line nor reorder what is shown.
 * Line feeds are escaped too unless `keepLineBreaks` (for text whose lines are the CLI's own).
 */
export function escapeForTerminal(text: string, keepLineBreaks = false): string {
  return text.replace(keepLineBreaks ? TERMINAL_UNSAFE_KEEP_LF : TERMINAL_UNSAFE, escapeOne);
}
