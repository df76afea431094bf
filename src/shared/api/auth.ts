import { z } from 'zod';

/** Roles, weakest first. Viewer reads; Contributor and Editor write; Admin does everything. */
export const Role = z.enum(['Viewer', 'Contributor', 'Editor', 'Admin']);
export type Role = z.infer<typeof Role>;

/** Numeric rank of a role, for "at least" comparisons. */
export const ROLE_RANK: Record<Role, number> = { Viewer: 0, Contributor: 1, Editor: 2, Admin: 3 };

/** True when `role` is at least `min`. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min];
}

export const Username = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, 'may contain letters, digits, ".", "_", "@" and "-" only');

/** Minimum password length for new or changed passwords. */
export const MIN_PASSWORD_LENGTH = 8;
export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024);

export const LoginBody = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** Limits of this server that clients check before sending (the server enforces them all the same). */
export const ServerLimits = z.object({
  /** Largest binary asset upload, in bytes (`CMS_MAX_UPLOAD_BYTES`); larger ones are refused with 413. */
  maxUploadBytes: z.number().int().positive(),
});
export type ServerLimits = z.infer<typeof ServerLimits>;

/** The signed-in user. `csrfToken` is present for cookie sessions: send it as `X-CSRF-Token` on unsafe methods. */
export const Me = z.object({
  username: z.string(),
  role: Role,
  csrfToken: z.string().optional(),
  /** The server's limits (sign-in and `/auth/me` answer them). */
  limits: ServerLimits.optional(),
  /**
   * Where the change log stood when this was answered: a client that opens the event stream with `?after=` it
   * misses no change made after what it reads from here on.
   */
  eventsAfter: z.number().int().nonnegative().optional(),
});
export type Me = z.infer<typeof Me>;

export const User = z.object({
  username: z.string(),
  role: Role,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

/** The current password, proving it is its owner who changes it. */
const CurrentPassword = z.string().min(1, 'is required').max(1024);

/** `PUT /cms/rest/users/<name>`: creates (password required) or updates role and/or password. */
export const UserPutBody = z.object({
  role: Role,
  password: NewPassword.optional(),
  /** Required with `password` on one's own account (as for POST /auth/password); not for another user's. */
  currentPassword: CurrentPassword.optional().describe(
    "Your current password: required with `password` when you change your own account's (400 when missing or " +
      'wrong; wrong ones count toward the sign-in rate limit); not used for other users.',
  ),
});
export type UserPutBody = z.infer<typeof UserPutBody>;

/** `POST /cms/rest/auth/password`: the signed-in user changes their own password, proving the current one. */
export const PasswordChangeBody = z
  .object({
    currentPassword: CurrentPassword,
    newPassword: NewPassword,
  })
  .refine((b) => b.newPassword !== b.currentPassword, {
    path: ['newPassword'],
    message: 'must differ from the current password',
  });
export type PasswordChangeBody = z.infer<typeof PasswordChangeBody>;

// Plain names (no zod) in a module of their own: the SPA's first screen reads the hint cookie.
export { CSRF_HEADER, SESSION_HINT_COOKIE } from './session-names.js';
