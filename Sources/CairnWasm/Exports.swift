public let cairnWasmPlaceholder = 0
