/** What scripts/function-length.mjs measures. */
export interface FunctionLength {
  file: string;
  /** 1-based line the function starts on. */
  line: number;
  name: string;
  lines: number;
}
export declare const MAX_FUNCTION_LINES: number;
export declare function measureSource(fileName: string, text: string): FunctionLength[];
export declare function measureFunctions(dir?: string): FunctionLength[];
export declare function longFunctions(limit?: number, dir?: string): FunctionLength[];
