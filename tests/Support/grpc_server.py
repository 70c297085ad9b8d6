#!/usr/bin/python3
"""helloworld.Greeter served by python3-grpcio (gRPC's C core, an
implementation that shares no code with Rapier's), for
tests/Grpc/GrpcClientTest.php to call with Rapier\\Grpc\\Client.

    grpc_server.py PB2_DIR [CERT KEY]

PB2_DIR holds helloworld_pb2.py, made by the test with `protoc --python_out`
from examples/grpc/helloworld.proto. With CERT and KEY (PEM) it serves TLS.
It prints "port N" once it listens on 127.0.0.1:N, and serves until killed.
Replies are gzip-compressed, as the server's default.
"""
import concurrent.futures
import sys
import time

import grpc

pb2_dir = sys.argv[1]
sys.path.insert(0, pb2_dir)
import helloworld_pb2 as hw  # noqa: E402


def say_hello(request, context):
    if request.name == "":
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "name is empty: say who to greet")
    if request.name.startswith("sleep "):
        # Sleeps in steps, as a handler checking its deadline does; says whether the client's deadline came first.
        end = time.monotonic() + float(request.name[6:])
        while time.monotonic() < end and context.is_active():
            time.sleep(0.01)
        return hw.HelloReply(message="slept" if context.is_active() else "cancelled")
    received = dict(context.invocation_metadata())
    context.send_initial_metadata((("x-server", "grpcio"), ("x-echo-bin", received.get("x-echo-bin", b""))))
    context.set_trailing_metadata((("x-greeted-bin", request.name.encode()), ("x-timeout", "yes" if context.time_remaining() else "no")))
    return hw.HelloReply(message="Hello, %s! (from %s)" % (request.name, received.get("x-from", "nobody")))


def say_hello_stream(request, context):
    for i in range(1, request.count + 1):
        yield hw.HelloReply(message="Hello, %s! (%d of %d)" % (request.name, i, request.count))
    if request.name == "fail":
        context.abort(grpc.StatusCode.DATA_LOSS, "failed after %d replies" % request.count)


def say_hello_to_all(requests, context):
    names = [r.name for r in requests]
    return hw.HelloReply(message="Hello, %s!" % ", ".join(names))


def say_hello_chat(requests, context):
    for request in requests:
        yield hw.HelloReply(message="Hello, %s!" % request.name)


def main():
    handler = grpc.method_handlers_generic_handler("helloworld.Greeter", {
        "SayHello": grpc.unary_unary_rpc_method_handler(
            say_hello, request_deserializer=hw.HelloRequest.FromString, response_serializer=hw.HelloReply.SerializeToString),
        "SayHelloStream": grpc.unary_stream_rpc_method_handler(
            say_hello_stream, request_deserializer=hw.HelloStreamRequest.FromString,
            response_serializer=hw.HelloReply.SerializeToString),
        "SayHelloToAll": grpc.stream_unary_rpc_method_handler(
            say_hello_to_all, request_deserializer=hw.HelloRequest.FromString,
            response_serializer=hw.HelloReply.SerializeToString),
        "SayHelloChat": grpc.stream_stream_rpc_method_handler(
            say_hello_chat, request_deserializer=hw.HelloRequest.FromString,
            response_serializer=hw.HelloReply.SerializeToString),
    })
    server = grpc.server(concurrent.futures.ThreadPoolExecutor(max_workers=16), handlers=[handler],
                         compression=grpc.Compression.Gzip)
    if len(sys.argv) > 3:
        with open(sys.argv[2], "rb") as cert, open(sys.argv[3], "rb") as key:
            credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
        port = server.add_secure_port("127.0.0.1:0", credentials)
    else:
        port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print("port %d" % port, flush=True)
    server.wait_for_termination()


main()
