// The Schedules tab's query key, shared by the server page's prefetch and the client hook (a
// 'use client' module's exports cannot be called on the server). Under the broker's key, so
// every action's refetch (use-broker-action) reads the schedules again.
export const schedulesKey = (b: string) => ['broker', b, 'schedules'] as const;
