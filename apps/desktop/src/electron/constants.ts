/** The command-line switch that carries the app version to the preload (it cannot ask synchronously). */
export const VERSION_SWITCH = '--xcad-desktop-version=';
