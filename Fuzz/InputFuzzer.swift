// libFuzzer target for the input path (`make fuzz`): built together with PerchInterface's sources
// into one module with `swiftc -sanitize=fuzzer,address`.

/// libFuzzer's entry point (LLVMFuzzerTestOneInput): feeds `data` through ``InputPipelineCheck``
/// and traps on the first property that does not hold. The first byte sets the chunk size (1–32
/// bytes); within the rest, a chunk whose first byte has its top bit set is followed by a quiet
/// spell (the decoder is flushed) and its low six bits give the time to the next chunk, in units
/// of 10 ms.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputPipeline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunkSize = Int(bytes[0] % 32) + 1
    var check = InputPipelineCheck(renderEvery: 16)
    var time: Int64 = 1_000
    do {
        var start = 1
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try check.feed(Array(bytes[start..<end]), at: time, thenQuiet: bytes[start] & 0x80 != 0)
            time += Int64(bytes[start] & 0x3F) * 10
            start = end
        }
        try check.finish(at: time + 1_000)
    } catch {
        fatalError("\(error)")
    }
    return 0
}
