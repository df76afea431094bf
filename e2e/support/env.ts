/** The admin password of the throwaway e2e server (never a real one); the server is started with it. */
export const E2E_ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';
/** Where the setup project stores the signed-in admin's cookies for the other specs. */
export const ADMIN_STORAGE_STATE = 'test-results/.auth/admin.json';
/** A browser context with no cookies: for specs that sign in themselves. */
export const SIGNED_OUT = { cookies: [], origins: [] };
