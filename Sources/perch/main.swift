import Glibc
import PerchApp

exit(PerchApp.main(Array(CommandLine.arguments.dropFirst())))
