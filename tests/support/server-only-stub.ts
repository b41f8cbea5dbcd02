// Vitest runs server modules outside Next's bundler, where `server-only` would throw.
export {};
