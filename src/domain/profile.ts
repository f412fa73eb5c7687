/**
 * Profile rules (docs/domain/social.md#profile), pure: user-name validation, game id format, limits.
 */
export const USER_NAME_MIN = 2;
export const USER_NAME_MAX = 20;
export const PROFILE_TEXT_MAX = 500;
export const PROFILE_IMAGE_MAX = 1024;
/** Name shown for a user the viewer may not see (as the reference). */
export const MASKED_USER_NAME = '非公開ユーザー';

const FORBIDDEN_CHARS = /[/\\?#%*:"'<>|]/;
// ASCII letters/digits, hiragana, katakana (incl. ー・), CJK unified ideographs, spaces (ASCII and
// full-width; unlike the reference's \s, no tabs or newlines), . _ -
const ALLOWED = /^[A-Za-z0-9\u3040-\u309F\u30A0-\u30FF\u4E00-\u9FFF \u3000._-]+$/;

/** Problem with a user name, or null when valid. Length counted in UTF-16 units (as the reference). */
export function userNameProblem(name: string): string | null {
  if (name.length < USER_NAME_MIN || name.length > USER_NAME_MAX) {
    return `User name must be ${USER_NAME_MIN}–${USER_NAME_MAX} characters`;
  }
  if (FORBIDDEN_CHARS.test(name)) return 'User name must not contain / \\ ? # % * : " \' < > |';
  if (!ALLOWED.test(name)) return 'User name may contain letters, digits, kana, kanji, spaces and . _ - only';
  if (name.trim().length === 0) return 'User name must not be blank';
  // The masked name stands for "a user you may not see": nobody may be called that.
  if (name.replace(/[ \u3000]/g, '') === MASKED_USER_NAME) return `"${MASKED_USER_NAME}" is reserved`;
  return null;
}

/** The case-insensitive uniqueness key. */
export const nameKeyOf = (name: string): string => name.toLowerCase();

/** Accepts 8 digits or NNNN-NNNN; returns the stored form (8 digits) or null when invalid. */
export function parseGameId(input: string): string | null {
  const m = /^(\d{4})-?(\d{4})$/.exec(input.trim());
  return m ? m[1] + m[2] : null;
}

/** Display form: NNNN-NNNN for 8 digits; anything else unchanged. */
export function formatGameId(stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined) return null;
  return /^\d{8}$/.test(stored) ? `${stored.slice(0, 4)}-${stored.slice(4)}` : stored;
}

/** https URL of at most PROFILE_IMAGE_MAX characters, or a problem message. */
export function profileImageProblem(url: string): string | null {
  if (url.length > PROFILE_IMAGE_MAX) return `profileImage must be at most ${PROFILE_IMAGE_MAX} characters`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'profileImage must be an https URL';
  }
  if (u.protocol !== 'https:') return 'profileImage must be an https URL';
  return null;
}

/** Social (X) id: letters, digits and underscore, at most 15 as the client; optional leading @ dropped. */
export function parseSocialId(input: string): string | null {
  const v = input.trim().replace(/^@/, '');
  return /^[A-Za-z0-9_]{1,15}$/.test(v) ? v : null;
}

/** Versions sorted for display: newest first, INF last. */
export function sortVersionsForProfile<T extends { version: string }>(rows: T[]): T[] {
  const key = (v: string) => (v === 'INF' ? -1 : Number(v));
  return [...rows].sort((a, b) => key(b.version) - key(a.version));
}
