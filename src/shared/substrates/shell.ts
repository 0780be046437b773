/** The shell substrate's name, which is also the name of its one tool, the judge's `shell`. */
export const shellName = 'shell';
