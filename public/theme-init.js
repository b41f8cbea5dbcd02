// Runs before first paint so a dark-mode page never flashes white.
(function () {
  try {
    var stored = localStorage.getItem('potatoq-console-theme');
    var dark = stored === 'dark' || (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch (e) {}
})();
