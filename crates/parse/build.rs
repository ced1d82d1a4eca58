//! Compiles `cxx/udpipe_conllu.cpp`, the shim that returns UDPipe's whole CoNLL-U output
//! (multiword tokens included), against UDPipe's public header `cxx/udpipe.h`. The UDPipe
//! library itself is compiled and linked by the `udpipe-rs` dependency.

fn main() {
    cc::Build::new()
        .cpp(true)
        .std("c++11")
        .include("cxx")
        .file("cxx/udpipe_conllu.cpp")
        .compile("ldd_udpipe_conllu");
    println!("cargo:rerun-if-changed=cxx/udpipe_conllu.cpp");
    println!("cargo:rerun-if-changed=cxx/udpipe.h");
}
