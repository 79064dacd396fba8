/** How long the patient list's search box waits after the last key before it asks for the list (also read by the bench). */
export const SEARCH_PAUSE_MS = 300;
