module toolgate

go 1.24
