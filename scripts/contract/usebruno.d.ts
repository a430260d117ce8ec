// @usebruno/converters ships JavaScript without types: the one function used here.
declare module '@usebruno/converters' {
  export function openApiToBruno(specification: object, options?: object): unknown;
}
