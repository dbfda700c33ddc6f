// Gitea's access modes, in order: every check compares against these. Kept apart from the
// permission rules (permissions.ts) so the route table can name them without loading the models.
export const ACCESS = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessMode = (typeof ACCESS)[keyof typeof ACCESS];
